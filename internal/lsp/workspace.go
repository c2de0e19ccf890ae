package lsp

// changeKind says what happened to a file.
type changeKind int

const (
	changeBuffer changeKind = iota // opened or edited in the editor
	changeClosed                   // closed in the editor
	changeDisk                     // created, changed or deleted on disk
)

type workspace struct{ s *Server }

func newWorkspace(s *Server) *workspace { return &workspace{s: s} }

func (w *workspace) changed(paths []string, kind changeKind) {}
