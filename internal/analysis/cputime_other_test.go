//go:build !unix

package analysis

import "time"

func processCPUTime() (time.Duration, bool) { return 0, false }
