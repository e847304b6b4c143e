package protocol

import (
	"testing"

	"yarnplay/app/store"
)

// Whatever bytes come in, the decoders return an error or a message,
// never panic: as a command, as a page's first reply, and as the reply
// after a frame the page holds (a delta over it); a reply that decodes
// leaves a frame the page can index (its containers' nodes and
// applications in range).
func FuzzDecode(f *testing.F) {
	s := store.New()
	sv := NewServer(s)
	var rw ReplyWriter
	first := rw.Encode(0, sv.Handle(Command{Op: OpOpen, Name: "elastic-borrowing"}))
	f.Add(first)
	for i, c := range []Command{{Op: OpLast}, {Op: OpBack}, {Op: OpSelect, Queue: "root.a"}, {Op: OpLink}} {
		data, err := EncodeCommand(uint32(i), c)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		f.Add(rw.Encode(uint32(i+1), sv.Handle(c)))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _, _ = DecodeCommand(data)
		var fresh, held ReplyReader
		check(fresh.Decode(data))
		if _, _, err := held.Decode(first); err != nil {
			t.Fatal(err)
		}
		check(held.Decode(data))
	})
}

// check indexes a decoded reply's frame as the page does.
func check(_ uint32, rep Reply, err error) {
	if err != nil || rep.Frame == nil {
		return
	}
	fr := rep.Frame
	for i := range fr.Nodes {
		_ = fr.Node(i)
		for _, c := range fr.NodeBriefs(i) {
			_ = fr.App(int(c.App))
		}
	}
	_ = fr.AppRanks()
	_, _, _ = fr.TableApps()
	_, _ = fr.LiveApps()
	_ = fr.WhyChoices()
}
