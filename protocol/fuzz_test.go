package protocol

import (
	"testing"

	"yarnplay/app/store"
)

// Whatever bytes come in, the decoders return an error or a message,
// never panic; a reply that decodes leaves a frame the page can index
// (its containers' nodes and applications in range).
func FuzzDecode(f *testing.F) {
	s := store.New()
	sv := NewServer(s)
	var rw ReplyWriter
	for i, c := range []Command{{Op: OpOpen, Name: "elastic-borrowing"}, {Op: OpLast}, {Op: OpBack}, {Op: OpLink}} {
		data, err := EncodeCommand(uint32(i), c)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		f.Add(rw.Encode(uint32(i), sv.Handle(c)))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _, _ = DecodeCommand(data)
		var rr ReplyReader
		_, rep, err := rr.Decode(data)
		if err != nil || rep.Frame == nil {
			return
		}
		fr := rep.Frame
		for i := range fr.Nodes {
			for _, c := range fr.NodeBriefs(i) {
				_ = fr.Apps[c.App]
			}
		}
	})
}
