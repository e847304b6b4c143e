package core

// allocBlocks are the unused rest of the blocks that the scheduler cuts its
// applications, requests and users from (with one, as Clone
// does): one allocation per block instead of one per object. The garbage
// collector marks a block as one object: at benchmark 1's scale (the
// benchmark Memory), the heap held 474,844 objects before and 149,260
// after, and a full collection took 35 to 56 ms instead of 78 to 112
// (bench/results/log.md, step 32). A block lives as long as
// any object cut from it: applications are kept for good anyway, and a
// user a leaf forgets or a request an application drops stays with its
// block.
//
// The blocks belong to one scheduler: a clone starts with none.
type allocBlocks struct {
	apps     []app
	requests []request
	users    []user
}

// The blocks' sizes, in objects. Each block is 32 or 48 KB (an app takes
// 256 bytes, a user 128, a request 96): an object of 32 KB or more gets
// pages of its own and starts the first, while a smaller object with
// pointers starts 8 bytes into its slot, after the header the allocator
// gives objects of over 512 bytes. The blocks are whole pages, so none is
// wasted.
const (
	appBlock     = 128
	requestBlock = 512
	userBlock    = 256
)
