package main

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// waitLeases returns, with the reason, when the control plane should stop: a signal, a child
// that died, or no live lease for the idle duration. A lease is a file in dir named
// "pid.<pid>" (live while that process is) or "until.<unix-ms>" (live until then); dead ones are
// removed.
func waitLeases(ctx context.Context, dir string, idle time.Duration, apiDone <-chan struct{}, mgrDone <-chan error) string {
	idleSince := time.Time{}
	tick := time.NewTicker(500 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return "signal"
		case <-apiDone:
			return "kube-apiserver exited"
		case err := <-mgrDone:
			return "webhook manager stopped: " + errString(err)
		case <-tick.C:
		}
		if liveLeases(dir) > 0 {
			idleSince = time.Time{}
			continue
		}
		if idleSince.IsZero() {
			idleSince = time.Now()
		} else if time.Since(idleSince) >= idle {
			return "no live lease for " + idle.String()
		}
	}
}

func errString(err error) string {
	if err == nil {
		return "no error"
	}
	return err.Error()
}

func liveLeases(dir string) int {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	live := 0
	now := time.Now().UnixMilli()
	for _, e := range entries {
		name := e.Name()
		alive := false
		switch {
		case strings.HasPrefix(name, "pid."):
			if pid, err := strconv.Atoi(strings.TrimPrefix(name, "pid.")); err == nil && pid > 0 {
				err := syscall.Kill(pid, 0)
				alive = err == nil || err == syscall.EPERM
			}
		case strings.HasPrefix(name, "until."):
			if until, err := strconv.ParseInt(strings.TrimPrefix(name, "until."), 10, 64); err == nil {
				alive = now < until
			}
		default:
			continue
		}
		if alive {
			live++
		} else {
			_ = os.Remove(filepath.Join(dir, name))
		}
	}
	return live
}
