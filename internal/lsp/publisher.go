package lsp

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"sort"
	"sync"

	"go.lsp.dev/protocol"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/diag"
	"github.com/beeuni/beeuni-lsp/internal/ruledoc"
)

// source says which pass produced a set of findings.
type source int

const (
	sourceYAML    source = iota // the project load (YAML rules)
	sourceModules               // the module inspection (T11)
)

type setKey struct {
	root string
	src  source
}

// findingSet is what one pass found in one file, with the content its
// ranges are in.
type findingSet struct {
	gen      uint64
	content  []byte
	version  int32
	versions bool // version is known (the file was open)
	findings []diag.Finding
	// mapper maps content: the open document's mapper when the set was
	// made from the document, else one on the line index of the project's
	// file when content is its text (nil otherwise). Publishing converts
	// with it instead of indexing content again when the editor has moved
	// on.
	mapper *Mapper
	// stamp is the disk cache's stamp of a file neither loaded nor open
	// when its content was read (stamped false otherwise): see
	// setContentLocked.
	stamp   uint64
	stamped bool
}

// fileState is what the publisher knows of one file.
type fileState struct {
	sets     map[setKey]*findingSet
	last     []byte // the last params sent, as JSON (never modified)
	nonEmpty bool   // the last publish had diagnostics
	gen      uint64 // the generation of the last publish
	// uri is the URI of the last publish: the client's spelling while the
	// file is open, the server's otherwise.
	uri protocol.DocumentURI
}

// publisher merges the finding sets of every project and pass into one
// publishDiagnostics per file. It is write-only: requests read the
// snapshot they were asked against (analysis.Snapshot.Findings), never
// what was published. For each file it publishes the findings of
// the newest content it has seen, adding another pass's findings only when
// they were made on that same content; it never publishes a version older
// than one it published, nor the same params twice in a row.
type publisher struct {
	s *Server

	mu    sync.Mutex
	files map[string]*fileState
	byKey map[setKey]map[string]bool
	// related holds the mappers of the files related information points
	// into (T11's module), kept between publishes while their content is
	// the same bytes.
	related map[string]relatedIndex
	// held are the files whose publish waits for room in the output
	// queue (stream.publishRoom): publishHeld publishes each, with its
	// newest findings, once the client has read enough.
	held map[string]bool
}

// stopCheckEvery is how many findings the publisher converts between two
// looks at whether the server is stopping.
const stopCheckEvery = 1024

// maxRelatedMappers bounds publisher.related.
const maxRelatedMappers = 4096

func newPublisher(s *Server) *publisher {
	return &publisher{s: s, files: map[string]*fileState{}, byKey: map[setKey]map[string]bool{}, related: map[string]relatedIndex{}, held: map[string]bool{}}
}

// fileIn returns proj's file at path, or nil.
func fileIn(proj *analysis.Project, path string) *analysis.File {
	if proj == nil {
		return nil
	}
	return proj.File(path)
}

// contentIn returns a file's content as proj loaded it, else as v has it.
func contentIn(v *view, proj *analysis.Project, path string) []byte {
	if f := fileIn(proj, path); f != nil {
		return f.Content()
	}
	if d := v.docs[path]; d != nil {
		return d.content()
	}
	data, _ := v.fs.ReadFile(path)
	return data
}

func groupByFile(fs []diag.Finding) map[string][]diag.Finding {
	out := map[string][]diag.Finding{}
	for _, f := range fs {
		out[f.File] = append(out[f.File], f)
	}
	return out
}

// setYAML publishes the YAML findings of snap, made from v.
func (pb *publisher) setYAML(v *view, snap *analysis.Snapshot) {
	pb.replace(setKey{snap.Root, sourceYAML}, v, snap, pb.yamlGroups(v, snap.Project))
}

// yamlGroups are proj's YAML findings by file.
func (pb *publisher) yamlGroups(v *view, proj *analysis.Project) map[string][]diag.Finding {
	groups := groupByFile(proj.Findings)
	// Open files of the project get a set even when clean, so that each
	// version they reach is confirmed.
	for _, f := range proj.Files {
		if _, open := v.docs[f.Path]; open {
			if _, ok := groups[f.Path]; !ok {
				groups[f.Path] = nil
			}
		}
	}
	return groups
}

// setModules publishes the module findings of snap, made from v (none when
// its Inspection is nil: inspection is off).
func (pb *publisher) setModules(v *view, snap *analysis.Snapshot) {
	pb.replace(setKey{snap.Root, sourceModules}, v, snap, pb.moduleGroups(v, snap.Inspection))
}

// moduleGroups are the module findings of insp by file (nil: none).
func (pb *publisher) moduleGroups(v *view, insp *analysis.Inspection) map[string][]diag.Finding {
	var groups map[string][]diag.Finding
	if insp != nil {
		groups = groupByFile(insp.Findings)
		// The open modules (few open documents, many modules).
		for path := range v.docs {
			if r := insp.Results[path]; r != nil {
				if _, ok := groups[path]; !ok {
					groups[path] = nil
				}
			}
		}
	}
	return groups
}

// setYAMLAndModules publishes both sets of snap at once, so that a client
// never sees the YAML findings without the module ones.
func (pb *publisher) setYAMLAndModules(v *view, snap *analysis.Snapshot) {
	yamlGroups := pb.yamlGroups(v, snap.Project)
	modGroups := pb.moduleGroups(v, snap.Inspection)
	pb.mu.Lock()
	defer pb.mu.Unlock()
	if !pb.s.ws.isLive(snap.Root) {
		return // removed while it was analysed (see replace)
	}
	touched := map[string]bool{}
	pb.replaceLocked(setKey{snap.Root, sourceYAML}, v, snap, yamlGroups, touched)
	pb.replaceLocked(setKey{snap.Root, sourceModules}, v, snap, modGroups, touched)
	pb.publishLocked(sortedKeys(touched))
}

func (pb *publisher) replace(key setKey, v *view, snap *analysis.Snapshot, groups map[string][]diag.Finding) {
	pb.mu.Lock()
	defer pb.mu.Unlock()
	// A project removed while it was analysed publishes nothing: removal
	// unregisters the project, then clears its sets under pb.mu, so either
	// this sees it gone or the clearing comes after.
	if !pb.s.ws.isLive(key.root) {
		return
	}
	if pb.s.bg.Err() != nil {
		return // the server is stopping: exit waits for no publish
	}
	touched := map[string]bool{}
	pb.replaceLocked(key, v, snap, groups, touched)
	pb.publishLocked(sortedKeys(touched))
}

// replaceLocked replaces the set of key with groups, snap's findings, and
// adds the files it changes to touched. v is the view snap was made from:
// its documents' mappers convert the ranges.
func (pb *publisher) replaceLocked(key setKey, v *view, snap *analysis.Snapshot, groups map[string][]diag.Finding, touched map[string]bool) {
	for path := range pb.byKey[key] {
		if _, still := groups[path]; !still {
			if st := pb.files[path]; st != nil {
				delete(st.sets, key)
			}
			touched[path] = true
		}
	}
	files := map[string]bool{}
	for path, fs := range groups {
		set := &findingSet{gen: snap.Gen, findings: fs}
		set.content, set.stamp, set.stamped = pb.setContentLocked(key, v, snap.Project, path)
		if d := v.docs[path]; d != nil && bytes.Equal(d.content(), set.content) {
			set.version, set.versions = snap.Version(path)
			set.mapper = d.mapper
		} else if f := fileIn(snap.Project, path); f != nil && f.Lines != nil && bytes.Equal(f.Content(), set.content) {
			set.mapper = &Mapper{lines: f.Lines, enc: pb.s.encoding()} // the engine's index: editor line breaks
		}
		st := pb.files[path]
		if st == nil {
			st = &fileState{sets: map[setKey]*findingSet{}}
			pb.files[path] = st
		}
		files[path] = true
		if old := st.sets[key]; sameSet(old, set) {
			// Nothing to say again (a module untouched by a keystroke in
			// the manifest): keep the set, now current for this analysis.
			old.gen = max(old.gen, set.gen)
			continue
		}
		st.sets[key] = set
		touched[path] = true
	}
	if len(files) == 0 {
		delete(pb.byKey, key)
	} else {
		pb.byKey[key] = files
	}
}

// setContentLocked is contentIn for the set of key in path, with the disk
// cache's stamp of a file neither loaded nor open. Such a file (a module
// with findings) is not read again while the set already holds its
// content and the stamp says the client reported no change: the cache
// does not keep modules' contents, and a keystroke in the manifest would
// otherwise read every module that has a finding.
func (pb *publisher) setContentLocked(key setKey, v *view, proj *analysis.Project, path string) (content []byte, stamp uint64, stamped bool) {
	if v.docs[path] != nil || proj != nil && proj.File(path) != nil {
		return contentIn(v, proj, path), 0, false
	}
	stamp, stamped = pb.s.disk.stamp(path)
	if st := pb.files[path]; stamped && st != nil {
		if old := st.sets[key]; old != nil && old.stamped && old.stamp == stamp {
			return old.content, stamp, true
		}
	}
	return contentIn(v, proj, path), stamp, stamped
}

// dropRoot removes every set of a project (its manifest is gone).
func (pb *publisher) dropRoot(root string) {
	pb.mu.Lock()
	defer pb.mu.Unlock()
	touched := map[string]bool{}
	for _, src := range []source{sourceYAML, sourceModules} {
		key := setKey{root, src}
		for path := range pb.byKey[key] {
			if st := pb.files[path]; st != nil {
				delete(st.sets, key)
			}
			touched[path] = true
		}
		delete(pb.byKey, key)
	}
	pb.publishLocked(sortedKeys(touched))
}

// forgetFile clears a file's diagnostics (closed and not on disk).
func (pb *publisher) forgetFile(path string) {
	pb.mu.Lock()
	defer pb.mu.Unlock()
	st := pb.files[path]
	if st == nil {
		return
	}
	for key := range st.sets {
		delete(pb.byKey[key], path)
	}
	st.sets = map[setKey]*findingSet{}
	pb.publishLocked([]string{path})
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// publishHeld publishes the files held back while the output queue was
// full, each with the findings it has now (the stream calls it once the
// client has read enough).
func (pb *publisher) publishHeld() {
	pb.mu.Lock()
	defer pb.mu.Unlock()
	pb.publishLocked(sortedKeys(pb.held))
}

// publishLocked sends the merged diagnostics of each path; while the
// output queue is over its budget (a client reading slower than the
// server publishes), it holds the paths back instead, for publishHeld.
func (pb *publisher) publishLocked(paths []string) {
	enc := pb.s.encoding()
	v := pb.s.currentView()
	relatedMapper := func(path string) *Mapper { return pb.relatedMapperLocked(v, path, enc) }
	for _, path := range paths {
		if pb.s.bg.Err() != nil {
			return // the server is stopping: exit waits for no publish
		}
		st := pb.files[path]
		if st == nil {
			delete(pb.held, path) // the publisher knows nothing of it: nothing to say
			continue
		}
		if !pb.s.out.publishRoom() {
			pb.held[path] = true
			continue
		}
		delete(pb.held, path)
		var newest *findingSet
		for _, set := range st.sets {
			if newest == nil || set.gen > newest.gen {
				newest = set
			}
		}
		params := protocol.PublishDiagnosticsParams{URI: pb.s.uriOf(v, path), Diagnostics: []protocol.Diagnostic{}}
		if st.nonEmpty && st.uri != params.URI {
			// The file was opened or closed under another spelling of
			// its URI: a client that compares URI strings would keep
			// showing what was published under the old one.
			pb.clearLocked(st)
		}
		var findings []diag.Finding
		if newest != nil {
			if newest.gen < st.gen {
				continue // never an older analysis after a newer one
			}
			if newest.versions {
				params.Version = uint32(newest.version)
			}
			for _, set := range st.sets {
				if bytes.Equal(set.content, newest.content) {
					findings = append(findings, set.findings...)
				}
			}
			diag.Sort(findings)
			// Any mapper of the same bytes gives the same ranges.
			var m *Mapper
			if newest.mapper != nil && newest.mapper.Encoding() == enc {
				m = newest.mapper // indexed when the document or the file was made
			} else if d := v.docs[path]; d != nil && bytes.Equal(d.content(), newest.content) {
				m = d.mapper
			} else {
				m = NewMapper(newest.content, enc)
			}
			params.Diagnostics = slices.Grow(params.Diagnostics, len(findings))
			for i, f := range findings {
				if i%stopCheckEvery == 0 && pb.s.bg.Err() != nil {
					return // a file of 100,000s of findings: exit does not wait for it
				}
				params.Diagnostics = append(params.Diagnostics, pb.s.toDiagnosticWith(v, m, f, relatedMapper))
			}
		}
		if len(params.Diagnostics) == 0 && !st.nonEmpty && (newest == nil || !newest.versions) {
			if len(st.sets) == 0 {
				delete(pb.files, path)
			}
			continue // nothing shown, nothing to confirm
		}
		data, err := json.Marshal(params)
		if err != nil {
			continue
		}
		if bytes.Equal(data, st.last) {
			continue
		}
		st.last = pb.send(params.URI, data)
		st.uri = params.URI
		st.nonEmpty = len(params.Diagnostics) > 0
		if newest != nil {
			st.gen = newest.gen
		}
		if len(st.sets) == 0 && !st.nonEmpty {
			delete(pb.files, path)
		}
	}
}

// clearLocked publishes no diagnostics under the URI of st's last publish.
func (pb *publisher) clearLocked(st *fileState) {
	data, err := json.Marshal(protocol.PublishDiagnosticsParams{URI: st.uri, Diagnostics: []protocol.Diagnostic{}})
	if err != nil {
		return
	}
	pb.send(st.uri, data)
	st.last, st.nonEmpty = nil, false
}

// send queues a publishDiagnostics of uri whose params are data, JSON
// already (encoded once, compared with the file's last params before it
// is sent); it may replace a publish of uri the client has not been sent
// yet. It returns data as sent.
func (pb *publisher) send(uri protocol.DocumentURI, data []byte) []byte {
	sent, err := pb.s.out.writePublish(uri, data)
	if err != nil {
		pb.s.tracef("sending %s: %v", protocol.MethodTextDocumentPublishDiagnostics, err)
	}
	return sent
}

// relatedMapperLocked returns what s.mapperFor(v, path) returns. The
// mapper of the last publish is kept (compact, without the content: a
// module's text is not held for its line starts) while the disk cache
// says the client reported no change of path since; while the cache is
// off, it is kept with its content and compared with what is read.
func (pb *publisher) relatedMapperLocked(v *view, path string, enc Encoding) *Mapper {
	if d := v.docs[path]; d != nil {
		return d.mapper
	}
	stamp, stamped := pb.s.disk.stamp(path)
	r, known := pb.related[path]
	if known && r.m.Encoding() == enc && stamped && r.stamped && r.stamp == stamp {
		return r.m
	}
	data, err := v.fs.ReadFile(path)
	if err != nil {
		return nil
	}
	if known && r.m.Encoding() == enc && !stamped && !r.stamped && bytes.Equal(r.m.Content(), data) {
		return r.m
	}
	m := NewMapper(data, enc)
	if len(pb.related) >= maxRelatedMappers {
		clear(pb.related)
	}
	if stamped {
		m = m.compact()
	}
	pb.related[path] = relatedIndex{m: m, stamp: stamp, stamped: stamped}
	return m
}

// relatedIndex is a mapper of a file related information points into,
// with the disk cache's stamp of the file when it was read (stamped false:
// the cache was off).
type relatedIndex struct {
	m       *Mapper
	stamp   uint64
	stamped bool
}

// toDiagnostic converts a finding; m maps the finding's file.
func (s *Server) toDiagnostic(v *view, m *Mapper, f diag.Finding) protocol.Diagnostic {
	return s.toDiagnosticWith(v, m, f, func(path string) *Mapper { return s.mapperFor(v, path) })
}

// toDiagnosticWith is toDiagnostic with the mappers of related files from
// mapperOf (as s.mapperFor gives them).
func (s *Server) toDiagnosticWith(v *view, m *Mapper, f diag.Finding, mapperOf func(path string) *Mapper) protocol.Diagnostic {
	d := protocol.Diagnostic{
		Range:    m.Range(f.Range.Start.Offset, f.Range.End.Offset),
		Severity: protocol.DiagnosticSeverity(f.Severity),
		Code:     f.Code,
		Source:   "beeuni",
		Message:  f.Message,
	}
	if href := ruledoc.HelpURI(f.Code); href != "" {
		d.CodeDescription = &protocol.CodeDescription{Href: protocol.URI(href)}
	}
	if len(f.Data) > 0 {
		d.Data = f.Data
	}
	for _, r := range f.Related {
		rm := m
		if r.File != f.File {
			if rm = mapperOf(r.File); rm == nil {
				rm = NewMapper(nil, m.Encoding())
			}
		}
		d.RelatedInformation = append(d.RelatedInformation, protocol.DiagnosticRelatedInformation{
			Location: protocol.Location{URI: s.uriOf(v, r.File), Range: rm.Range(r.Range.Start.Offset, r.Range.End.Offset)},
			Message:  r.Message,
		})
	}
	return d
}

// sameSet reports whether a new set says exactly what old said, about
// the same content and version.
func sameSet(old, set *findingSet) bool {
	if old == nil || old.versions != set.versions || old.version != set.version || !bytes.Equal(old.content, set.content) {
		return false
	}
	return sameFindings(old.findings, set.findings)
}

// sameFindings is reflect.DeepEqual for finding lists (a nil slice or map
// differs from an empty one), without reflection.
func sameFindings(a, b []diag.Finding) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := &a[i], &b[i]
		if x.File != y.File || x.Range != y.Range || x.Severity != y.Severity || x.Code != y.Code || x.Message != y.Message {
			return false
		}
		if (x.Related == nil) != (y.Related == nil) || !slices.Equal(x.Related, y.Related) {
			return false
		}
		if (x.Data == nil) != (y.Data == nil) || !maps.Equal(x.Data, y.Data) {
			return false
		}
	}
	return true
}
