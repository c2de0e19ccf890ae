package edit

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// Apply carries out a change on disk, all or nothing, and never outside
// root: every path must lie in the repository, and no folder or file on the
// way may be a symbolic link that leads out of it.
//
// Order (the manifest is the commit point): every new content is first
// written to a temporary file beside its target and synced; then created
// modules are renamed into place, then the edited manifests, then deleted
// files are moved aside. A crash before the manifest's rename leaves at most
// an unreferenced new module (harmless: the manifest does not name it); the
// manifest never names a module that is not yet on disk. Any failure rolls
// back what was done: moved-aside files come back, replaced files get their
// old bytes, new files and folders are removed.
func Apply(ctx context.Context, root string, c *Change) error {
	return apply(ctx, root, c, os.Rename)
}

// apply is Apply with the rename step given, so that tests can make it fail
// half way.
func apply(ctx context.Context, root string, c *Change, rename func(oldpath, newpath string) error) error {
	if c.Disabled != "" {
		return errors.New(c.Disabled)
	}
	rootAbs, err := filepath.Abs(root)
	if err != nil {
		return fmt.Errorf("resolve %s: %w", root, err)
	}
	realRoot, err := filepath.EvalSymlinks(rootAbs)
	if err != nil {
		return fmt.Errorf("resolve %s: %w", root, err)
	}
	tx := &transaction{root: rootAbs, realRoot: realRoot}
	defer tx.cleanTemps()

	// Plan every write before touching anything.
	for _, nf := range c.Create {
		target, err := tx.resolve(nf.Path)
		if err != nil {
			return err
		}
		if _, err := os.Lstat(target); err == nil && !nf.Overwrite {
			return fmt.Errorf("%s exists: not overwriting it", rel(rootAbs, nf.Path))
		}
		old, existed, err := readExisting(rootAbs, target)
		if err != nil {
			return err
		}
		tx.writes = append(tx.writes, &write{target: target, content: nf.Content, old: old, existed: existed})
	}
	for _, file := range c.Files() {
		edits := c.EditsOf(file)
		if len(edits) == 0 {
			continue
		}
		target, err := tx.resolve(file)
		if err != nil {
			return err
		}
		old, existed, err := readExisting(rootAbs, target)
		if err != nil {
			return err
		}
		if !existed {
			return fmt.Errorf("%s does not exist: nothing to edit", rel(rootAbs, file))
		}
		if want, ok := c.Base[file]; ok && want != digest(old.content) {
			return fmt.Errorf("%s changed since the edit was planned: run it again", rel(rootAbs, file))
		}
		out, err := ApplyText(old.content, edits)
		if err != nil {
			return err
		}
		tx.writes = append(tx.writes, &write{target: target, content: out, old: old, existed: true})
	}
	for _, d := range c.Delete {
		target, err := tx.resolveNoFollow(d)
		if err != nil {
			return err
		}
		if _, err := os.Lstat(target); errors.Is(err, fs.ErrNotExist) {
			continue
		} else if err != nil {
			return err
		}
		tx.deletes = append(tx.deletes, target)
	}

	// Write and sync every temporary file.
	for _, w := range tx.writes {
		if err := tx.prepare(w); err != nil {
			tx.rollback()
			return err
		}
	}
	if err := ctx.Err(); err != nil {
		tx.rollback()
		return err
	}
	// Commit: modules, then manifests, then deletions.
	for _, w := range tx.writes {
		if err := rename(w.temp, w.target); err != nil {
			tx.rollback()
			return fmt.Errorf("write %s: %w", rel(rootAbs, w.target), err)
		}
		w.temp, w.committed = "", true
		syncDir(filepath.Dir(w.target))
	}
	for _, d := range tx.deletes {
		aside, err := tempName(d, ".beeuni-deleted-")
		if err == nil {
			err = rename(d, aside)
		}
		if err != nil {
			tx.rollback()
			return fmt.Errorf("delete %s: %w", rel(rootAbs, d), err)
		}
		tx.asides = append(tx.asides, [2]string{d, aside})
	}
	for _, a := range tx.asides {
		os.RemoveAll(a[1])
		syncDir(filepath.Dir(a[0]))
	}
	return nil
}

type write struct {
	target    string
	content   []byte
	old       existing // what the target held, when it existed
	existed   bool
	temp      string
	committed bool
}

type transaction struct {
	root, realRoot string
	writes         []*write
	deletes        []string
	asides         [][2]string // original, moved-aside name
	madeDirs       []string
}

func rel(root, p string) string {
	if r, err := filepath.Rel(root, p); err == nil {
		return filepath.ToSlash(r)
	}
	return p
}

// resolve returns where writing p really writes: p with its folders
// resolved, and p itself resolved when it is a symbolic link. Both must lie
// inside the repository.
func (tx *transaction) resolve(p string) (string, error) {
	target, err := tx.resolveNoFollow(p)
	if err != nil {
		return "", err
	}
	info, err := os.Lstat(target)
	if err != nil || info.Mode()&fs.ModeSymlink == 0 {
		return target, nil
	}
	real, err := filepath.EvalSymlinks(target)
	if err != nil {
		return "", fmt.Errorf("%s is a symbolic link to nothing: remove it first", rel(tx.root, p))
	}
	if !vfs.Within(tx.realRoot, real) {
		return "", fmt.Errorf("%s is a symbolic link out of the repository: not writing through it", rel(tx.root, p))
	}
	return real, nil
}

// resolveNoFollow resolves p's folders (not p itself) and checks that the
// result lies inside the repository.
func (tx *transaction) resolveNoFollow(p string) (string, error) {
	if !filepath.IsAbs(p) {
		return "", fmt.Errorf("%s is not an absolute path", p)
	}
	p = filepath.Clean(p)
	if !vfs.Within(tx.root, p) || p == tx.root {
		return "", fmt.Errorf("%s is outside the repository %s: not touching it", p, tx.root)
	}
	// Resolve the deepest folder that exists; the rest will be created.
	dir := filepath.Dir(p)
	var missing []string
	for {
		if _, err := os.Lstat(dir); err == nil {
			break
		}
		missing = append([]string{filepath.Base(dir)}, missing...)
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", fmt.Errorf("resolve %s: %w", rel(tx.root, dir), err)
	}
	if !vfs.Within(tx.realRoot, real) {
		return "", fmt.Errorf("%s leads out of the repository through a symbolic link: not writing there", rel(tx.root, dir))
	}
	if info, err := os.Stat(real); err != nil || !info.IsDir() {
		return "", fmt.Errorf("%s is not a folder", rel(tx.root, dir))
	}
	return filepath.Join(append([]string{real}, append(missing, filepath.Base(p))...)...), nil
}

// owner is who owns a file, and how many hard links name it.
type owner struct {
	uid, gid int
	links    uint64
}

// existing is what Apply keeps of a file it replaces: its bytes, its mode
// and its owner (known false off Unix).
type existing struct {
	content []byte
	mode    fs.FileMode
	owner   owner
	known   bool
}

// readExisting reads a file that a change replaces. ok is false when there
// is none. A file the user cannot write is refused (read-only for everyone
// counts, also for root: replacing a 0444 file is not what its owner
// asked), and so is a file with several hard links (a rename would give
// this name new bytes and leave the other names on the old ones).
func readExisting(root, target string) (old existing, ok bool, err error) {
	info, err := os.Lstat(target)
	if errors.Is(err, fs.ErrNotExist) {
		return existing{mode: 0o644}, false, nil
	}
	if err != nil {
		return existing{}, false, err
	}
	if !info.Mode().IsRegular() {
		return existing{}, false, fmt.Errorf("%s is not a regular file", target)
	}
	name := rel(root, target)
	if info.Mode().Perm()&0o222 == 0 {
		return existing{}, false, fmt.Errorf("%s is read-only (mode %04o): make it writable (chmod u+w %s), then run it again", name, info.Mode().Perm(), name)
	}
	f, err := os.OpenFile(target, os.O_WRONLY, 0) // opening writes nothing
	if err != nil {
		return existing{}, false, fmt.Errorf("%s is not writable by you: %w", name, unwrapPath(err))
	}
	f.Close()
	o, known := ownerOf(info)
	if o.links > 1 {
		return existing{}, false, fmt.Errorf("%s has %d hard links: replacing it would leave the other names on the old content; make it a single file (cp %s %s.tmp && mv %s.tmp %s), then run it again", name, o.links, name, name, name, name)
	}
	content, err := os.ReadFile(target)
	return existing{content: content, mode: info.Mode().Perm(), owner: o, known: known}, true, err
}

// unwrapPath drops the path from an *fs.PathError (the message names it).
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// prepare creates the target's folders and writes a synced temporary file.
func (tx *transaction) prepare(w *write) error {
	if err := tx.mkdirs(filepath.Dir(w.target)); err != nil {
		return err
	}
	name, err := writeTemp(w.target, w.content, w.old)
	if err != nil {
		return err
	}
	w.temp = name
	return nil
}

func (tx *transaction) mkdirs(dir string) error {
	if _, err := os.Lstat(dir); err == nil {
		return nil
	}
	if err := tx.mkdirs(filepath.Dir(dir)); err != nil {
		return err
	}
	if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("create folder %s: %w", rel(tx.root, dir), err)
	}
	tx.madeDirs = append(tx.madeDirs, dir)
	return nil
}

func tempName(target, prefix string) (string, error) {
	f, err := os.CreateTemp(filepath.Dir(target), prefix+filepath.Base(target)+"-*")
	if err != nil {
		return "", err
	}
	name := f.Name()
	f.Close()
	os.Remove(name)
	return name, nil
}

// writeTemp writes content to a synced temporary file beside target, with
// the mode and, when it replaces a file, the owner and group of old (so
// that the rename keeps them; a failure to keep them is an error before
// anything is committed).
func writeTemp(target string, content []byte, old existing) (string, error) {
	f, err := os.CreateTemp(filepath.Dir(target), ".beeuni-edit-"+filepath.Base(target)+"-*")
	if err != nil {
		return "", fmt.Errorf("write beside %s: %w", target, err)
	}
	name := f.Name()
	_, err = f.Write(content)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(name, old.mode)
	}
	if err == nil && old.known {
		if now, known := ownerOfPath(name); !known || now.uid != old.owner.uid || now.gid != old.owner.gid {
			if cerr := os.Chown(name, old.owner.uid, old.owner.gid); cerr != nil {
				err = fmt.Errorf("cannot keep its owner %d:%d: %w", old.owner.uid, old.owner.gid, unwrapPath(cerr))
			}
		}
	}
	if err != nil {
		os.Remove(name)
		return "", fmt.Errorf("write %s: %w", target, err)
	}
	return name, nil
}

// ownerOfPath is ownerOf for a path.
func ownerOfPath(name string) (owner, bool) {
	info, err := os.Lstat(name)
	if err != nil {
		return owner{}, false
	}
	return ownerOf(info)
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// rollback undoes every committed step, newest first.
func (tx *transaction) rollback() {
	for i := len(tx.asides) - 1; i >= 0; i-- {
		os.Rename(tx.asides[i][1], tx.asides[i][0])
	}
	for i := len(tx.writes) - 1; i >= 0; i-- {
		w := tx.writes[i]
		if !w.committed {
			continue
		}
		if w.existed {
			if name, err := writeTemp(w.target, w.old.content, w.old); err == nil {
				if os.Rename(name, w.target) != nil {
					os.Remove(name)
				}
			}
		} else {
			os.Remove(w.target)
		}
	}
	tx.cleanTemps()
	for i := len(tx.madeDirs) - 1; i >= 0; i-- {
		os.Remove(tx.madeDirs[i]) // only succeeds when empty
	}
}

func (tx *transaction) cleanTemps() {
	for _, w := range tx.writes {
		if w.temp != "" {
			os.Remove(w.temp)
			w.temp = ""
		}
	}
}
