package features

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// RepoSource gives the files completion offers. Completion asks it only
// where the cursor's place offers files (a tools: key or module path, an
// imports: entry), so that a completion elsewhere, such as a name in an
// agent's list, never waits for a scan of the repository.
type RepoSource interface {
	Files() *RepoFiles // nil: no file is offered
}

// Files returns r itself: a scan already made is its own source.
func (r *RepoFiles) Files() *RepoFiles { return r }

// RepoFiles lists the files of a repository that completion may offer:
// tool modules for tools: and YAML files for imports:. Scanning walks the
// whole repository, so the server scans once per project and again when a
// watched file is created or deleted, not on each keystroke.
type RepoFiles struct {
	Root    string
	Modules []string // repository-relative slash paths of .ts/.js/.mts/.mjs/.cts/.cjs files
	YAML    []string // repository-relative slash paths of .yaml/.yml files
	// Truncated is true when the scan stopped at MaxScanFiles.
	Truncated bool
	// names[i] is the tool name proposed for Modules[i] ("" for none);
	// byName and byPath find modules by that name and by their path. Set by
	// ScanRepo; never changed afterwards.
	names  []string
	byName map[string][]int
	byPath map[string]int
}

// repoLookups are the module lookups completion uses.
type repoLookups struct {
	names  []string
	byName map[string][]int
	byPath map[string]int
}

// buildLookups computes the lookups of a list of modules.
func buildLookups(modules []string) repoLookups {
	l := repoLookups{
		names:  make([]string, len(modules)),
		byName: make(map[string][]int, len(modules)),
		byPath: make(map[string]int, len(modules)),
	}
	for i, m := range modules {
		n := toolNameForModule(m)
		l.names[i] = n
		l.byName[n] = append(l.byName[n], i)
		l.byPath[m] = i
	}
	return l
}

// lookups returns the lookups ScanRepo built, or builds them for a
// RepoFiles made by hand (without storing them: a RepoFiles is read
// concurrently).
func (rf *RepoFiles) lookups() repoLookups {
	if len(rf.names) == len(rf.Modules) && rf.byPath != nil {
		return repoLookups{names: rf.names, byName: rf.byName, byPath: rf.byPath}
	}
	return buildLookups(rf.Modules)
}

// MaxScanFiles bounds a scan, so that a huge checkout cannot stall the
// server; the files beyond it are not offered.
const MaxScanFiles = 20000

// skipDir reports whether a repository-relative folder is left out of the
// scan: dependencies, git's own folder, and the standard harness's custom
// tools folder (SPEC section 9: those files are not declared under tools:).
func skipDir(rel string) bool {
	base := path.Base(rel)
	return base == "node_modules" || base == ".git" || rel == analysis.HarnessToolsDir
}

// ScanRepo walks root through fsys. Symbolic links are not followed (a link
// may leave the repository or loop), unreadable folders are skipped, and so
// is a sub-folder holding its own beeuni.yaml: it is another project.
func ScanRepo(ctx context.Context, fsys vfs.FS, root string) (*RepoFiles, error) {
	rf := &RepoFiles{Root: root}
	if _, err := fsys.ReadDir(root); err != nil {
		return nil, fmt.Errorf("scan %s: %w", root, err)
	}
	count := 0
	var walk func(dir, rel string) error
	walk = func(dir, rel string) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		entries, err := fsys.ReadDir(dir)
		if err != nil {
			return nil
		}
		for _, e := range entries {
			if count >= MaxScanFiles {
				rf.Truncated = true
				return nil
			}
			name := e.Name()
			r := name
			if rel != "" {
				r = rel + "/" + name
			}
			switch {
			case e.Type()&fs.ModeSymlink != 0:
				continue
			case e.IsDir():
				sub := filepath.Join(dir, name)
				if _, err := fsys.Stat(filepath.Join(sub, analysis.ManifestName)); err == nil {
					continue // another project of a monorepo
				}
				if !skipDir(r) {
					if err := walk(sub, r); err != nil {
						return err
					}
				}
			case isModuleFile(name):
				rf.Modules = append(rf.Modules, r)
				count++
			case isYAMLFile(name):
				rf.YAML = append(rf.YAML, r)
				count++
			}
		}
		return nil
	}
	if err := walk(root, ""); err != nil {
		return nil, fmt.Errorf("scan %s: %w", root, err)
	}
	sort.Strings(rf.Modules)
	sort.Strings(rf.YAML)
	l := buildLookups(rf.Modules)
	rf.names, rf.byName, rf.byPath = l.names, l.byName, l.byPath
	return rf, nil
}

// isModuleFile reports whether a file name is a tool module: a module
// extension, and not a TypeScript declaration file (.d.ts), which holds no
// code.
func isModuleFile(name string) bool {
	if !analysis.HasModuleExtension(name) {
		return false
	}
	stem := strings.TrimSuffix(name, path.Ext(name))
	return !strings.HasSuffix(stem, ".d")
}

func isYAMLFile(name string) bool {
	ext := path.Ext(name)
	return ext == ".yaml" || ext == ".yml"
}
