//go:build !unix

package lsp

import "time"

func processCPUTime() (time.Duration, bool) { return 0, false }
