package sessions

import (
	"bytes"
	"errors"
	"io/fs"
	"maps"
	"slices"
)

// errPowerCut is what every operation returns once the power is gone.
var errPowerCut = errors.New("the power is cut")

// powerFS is a session folder in memory that knows what a power cut
// would leave of it: a file's data only as of its last fsync, and names
// only as of the folder's last fsync.
type powerFS struct {
	names   map[string]*inode // what a running process sees
	durable map[string]*inode // the names as of the folder's last fsync
	pending []nameChange      // changes to names since then, in order

	steps        int    // operations so far
	cutAt        int    // the operation the power goes at; -1 never
	cut          string // the operation it went at, once it has
	noFileSync   bool   // mutation: a file's fsync does nothing
	noFolderSync bool   // mutation: the folder's fsync does nothing
	noLinks      bool   // a folder that refuses links, as some file systems do
}

// inode is a file's data: as written, and as of its last fsync.
type inode struct {
	data, synced []byte
	dirty        bool // written or truncated since the last fsync
}

// nameChange is a create, rename or remove not yet made durable.
type nameChange struct {
	from, to string // from alone: a remove; to alone: a create
	ino      *inode
}

func newPowerFS() *powerFS {
	return &powerFS{names: map[string]*inode{}, durable: map[string]*inode{}, cutAt: -1}
}

// clone copies the folder, keeping which names share a file; its steps
// count from naught.
func (p *powerFS) clone() *powerFS {
	c := *p
	c.steps = 0
	copies := map[*inode]*inode{}
	dup := func(i *inode) *inode {
		if i != nil && copies[i] == nil {
			copies[i] = &inode{data: slices.Clone(i.data), synced: slices.Clone(i.synced), dirty: i.dirty}
		}
		return copies[i]
	}
	c.names, c.durable = map[string]*inode{}, map[string]*inode{}
	for n, i := range p.names {
		c.names[n] = dup(i)
	}
	for n, i := range p.durable {
		c.durable[n] = dup(i)
	}
	c.pending = nil
	for _, ch := range p.pending {
		ch.ino = dup(ch.ino)
		c.pending = append(c.pending, ch)
	}
	return &c
}

// step counts an operation and says whether the power is still on.
func (p *powerFS) step(what string) error {
	if p.cut == "" && p.steps == p.cutAt {
		p.cut = what
	}
	if p.cut != "" {
		return errPowerCut
	}
	p.steps++
	return nil
}

func (p *powerFS) create(name string) (file, error) {
	if err := p.step("create " + name); err != nil {
		return nil, err
	}
	if ino, ok := p.names[name]; ok {
		ino.data, ino.dirty = nil, true // O_TRUNC: data, not a name
		return &powerFile{p, ino, name}, nil
	}
	ino := &inode{dirty: true}
	p.names[name] = ino
	p.pending = append(p.pending, nameChange{to: name, ino: ino})
	return &powerFile{p, ino, name}, nil
}

func (p *powerFS) read(name string) ([]byte, error) {
	if err := p.step("read " + name); err != nil {
		return nil, err
	}
	ino, ok := p.names[name]
	if !ok {
		return nil, fs.ErrNotExist
	}
	return slices.Clone(ino.data), nil
}

func (p *powerFS) rename(from, to string) error {
	if err := p.step("rename " + from + " to " + to); err != nil {
		return err
	}
	ino, ok := p.names[from]
	if !ok {
		return fs.ErrNotExist
	}
	p.names[to] = ino
	delete(p.names, from)
	p.pending = append(p.pending, nameChange{from: from, to: to, ino: ino})
	return nil
}

// link gives from's file a second name: the names share its data.
func (p *powerFS) link(from, to string) error {
	if err := p.step("link " + from + " to " + to); err != nil {
		return err
	}
	if p.noLinks {
		return fs.ErrPermission
	}
	ino, ok := p.names[from]
	if !ok {
		return fs.ErrNotExist
	}
	if _, ok := p.names[to]; ok {
		return fs.ErrExist
	}
	p.names[to] = ino
	p.pending = append(p.pending, nameChange{to: to, ino: ino})
	return nil
}

func (p *powerFS) remove(name string) error {
	if err := p.step("remove " + name); err != nil {
		return err
	}
	if _, ok := p.names[name]; !ok {
		return fs.ErrNotExist
	}
	delete(p.names, name)
	p.pending = append(p.pending, nameChange{from: name})
	return nil
}

func (p *powerFS) syncFolder() error {
	if err := p.step("fsync the folder"); err != nil {
		return err
	}
	if !p.noFolderSync {
		p.durable, p.pending = maps.Clone(p.names), nil
	}
	return nil
}

type powerFile struct {
	p    *powerFS
	ino  *inode
	name string
}

// Write is cut halfway when the power goes during it.
func (f *powerFile) Write(b []byte) (int, error) {
	if err := f.p.step("write " + f.name); err != nil {
		half := len(b) / 2
		f.ino.data, f.ino.dirty = append(f.ino.data, b[:half]...), true
		return half, err
	}
	f.ino.data, f.ino.dirty = append(f.ino.data, b...), true
	return len(b), nil
}

func (f *powerFile) Sync() error {
	if err := f.p.step("fsync " + f.name); err != nil {
		return err
	}
	if !f.p.noFileSync {
		f.ino.synced, f.ino.dirty = slices.Clone(f.ino.data), false
	}
	return nil
}

func (f *powerFile) Close() error { return f.p.step("close " + f.name) }

// remains is one folder a power cut can leave: what the loader reads.
type remains struct {
	primary, backup []byte // nil: the name is not there
}

// saveChanges is the most changes to names one save makes: a new
// primary, a backup, each renamed into place; and, when a crash left the
// backup's temporary name, its removal.
const saveChanges = 5

// leftovers is every folder the power going now could leave, as far as
// the loader can tell them apart: the durable names with any subset of
// the last saveChanges changes since, after any prefix of older ones
// (there are some only when a folder fsync is skipped); and each file's
// data as synced, as written, empty or torn.
func (p *powerFS) leftovers() []remains {
	type pick struct {
		ino     *inode
		variant int
	}
	seen := map[[2]pick]bool{}
	var out []remains
	older := max(0, len(p.pending)-saveChanges)
	for prefix := range older + 1 {
		for mask := range 1 << (len(p.pending) - older) {
			names := maps.Clone(p.durable)
			for i, ch := range p.pending {
				if i < older && i >= prefix || i >= older && mask&(1<<(i-older)) == 0 {
					continue
				}
				if ch.from != "" {
					delete(names, ch.from)
				}
				if ch.to != "" {
					names[ch.to] = ch.ino
				}
			}
			pv, bv := versions(names[primaryName]), versions(names[backupName])
			for i, pd := range pv {
				for j, bd := range bv {
					key := [2]pick{{names[primaryName], i}, {names[backupName], j}}
					if !seen[key] {
						seen[key] = true
						out = append(out, remains{pd, bd})
					}
				}
			}
		}
	}
	return out
}

// versions is what a power cut can leave of a file's data.
func versions(ino *inode) [][]byte {
	if ino == nil {
		return [][]byte{nil}
	}
	have := func(b []byte) []byte { return append([]byte{}, b...) } // empty, not absent
	if !ino.dirty {
		return [][]byte{have(ino.synced)}
	}
	half := len(ino.data) / 2
	torn := have(ino.data[:half])
	if len(ino.synced) > half {
		torn = append(torn, ino.synced[half:]...)
	}
	out := [][]byte{have(ino.synced), have(ino.data), {}, have(ino.data[:half]), torn}
	return slices.CompactFunc(out, bytes.Equal)
}
