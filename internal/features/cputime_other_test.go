//go:build !unix

package features

import "time"

func processCPU() (time.Duration, bool) { return 0, false }
