package protocol

import (
	"errors"
	"fmt"
	"time"

	"yarnplay/app/store"
)

// Reply is what a command came to: its error in words ("" when it
// succeeded), what a question asked for, and the frame the store
// published, when it published one.
type Reply struct {
	// Err is the command's error ("" for none): an action the store
	// refused, or a question's answer that something is wrong (Check).
	Err string
	// Issue is Err as the queue editor shows it: the queue and property a
	// configuration error concerns (nil when Err is "").
	Issue *store.Issue
	// Played is PlayStep's answer (false: play should pause), and
	// Restore's (true: saved work was restored).
	Played bool
	// Works is the store's count of works after the command (see
	// store.Store.Works): a new value means the work was replaced.
	Works int
	// Text is Link's fragment and Save's value; Data is an export's file.
	Text string
	Data []byte
	// Frame is the frame the store stands on after the command, nil when
	// it is the one the page already has.
	Frame *store.Frame
	// Took is how long the simulation worked on the command (its thread's
	// clock; the page's performance measures show it).
	Took time.Duration
}

// ErrResync says that the page no longer holds the frames the
// simulation's next frames are deltas of: it sends OpResync, and the
// simulation's writer starts again with a whole frame (ReplyWriter.Reset).
var ErrResync = errors.New("protocol: the page's frames are out of step with the simulation's")

// ReplyWriter writes the replies of one worker to one page: their frames
// are deltas of the last it wrote.
type ReplyWriter struct{ frames FrameWriter }

// ReplyReader reads what a ReplyWriter wrote.
type ReplyReader struct{ frames FrameReader }

// Last returns the last frame read (nil before the first).
func (rr *ReplyReader) Last() *store.Frame { return rr.frames.Last() }

// written is the last frame written and what the writer remembers of it,
// nil before the first (the lists' encodings are never written into
// again: a new frame's are new arrays).
func (rw *ReplyWriter) written() (*store.Frame, *frameMemory) {
	if rw.frames.last == nil {
		return nil, nil
	}
	m := rw.frames.frameMemory
	return rw.frames.last, &m
}

// Reset forgets what the reader holds: the next frame is written whole.
func (rw *ReplyWriter) Reset() { rw.frames = FrameWriter{} }

// Encode writes a reply to the command id.
func (rw *ReplyWriter) Encode(id uint32, r Reply) []byte {
	return rw.AppendEncode(make([]byte, 0, 256), id, r)
}

// AppendEncode appends Encode's bytes to dst and returns the extended
// list: the worker writes every reply over the last one's array, which it
// posts a copy of, so that a big cluster's frames (megabytes) are not
// garbage at every step.
func (rw *ReplyWriter) AppendEncode(dst []byte, id uint32, r Reply) []byte {
	w := writer{b: dst}
	w.byte(Version)
	w.byte(kindReply)
	w.uint(uint64(id))
	w.str(r.Err)
	w.bool(r.Issue != nil)
	if r.Issue != nil {
		w.str(r.Issue.Queue)
		w.str(r.Issue.Property)
		w.str(r.Issue.Message)
	}
	w.bool(r.Played)
	w.int(int64(r.Works))
	w.str(r.Text)
	w.bytes(r.Data)
	w.int(int64(r.Took))
	w.bool(r.Frame != nil)
	if r.Frame != nil {
		rw.frames.write(&w, r.Frame)
	}
	return w.b
}

// Decode reads a reply. A message that is not a reply of this version, or
// is cut short, is an error, with the id of the command when it could be
// read. A reply whose frame does not decode leaves the reader without
// frames: the error is then also ErrResync, and the page asks the writer
// for a fresh frame (OpResync), since later frames are deltas of frames it
// no longer holds.
func (rr *ReplyReader) Decode(data []byte) (id uint32, rep Reply, err error) {
	r := reader{b: data}
	if err := r.header(kindReply); err != nil {
		return 0, Reply{}, err
	}
	id = r.uint32()
	rep.Err = r.str()
	if r.bool() {
		rep.Issue = &store.Issue{Queue: r.str(), Property: r.str(), Message: r.str()}
	}
	rep.Played = r.bool()
	rep.Works = r.small()
	rep.Text = r.str()
	if d := r.bytes(); len(d) > 0 {
		rep.Data = append([]byte(nil), d...)
	}
	rep.Took = time.Duration(r.int())
	frame := r.bool() && r.err == nil
	if frame {
		rep.Frame = rr.frames.read(&r)
	}
	if err := r.end(); err != nil {
		// The id, when it was read, says which command's reply was lost.
		if frame {
			// The reader forgot its frames (FrameReader.read): the
			// next must be a fresh one.
			err = errors.Join(err, ErrResync)
		}
		return id, Reply{}, fmt.Errorf("protocol: a reply that does not decode: %w", err)
	}
	return id, rep, nil
}
