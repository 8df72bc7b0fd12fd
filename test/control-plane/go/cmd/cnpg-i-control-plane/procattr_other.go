//go:build !linux

package main

import "syscall"

// childAttr: outside Linux there is no parent-death signal; the supervisor's own shutdown and the
// lease loop stop the child instead.
func childAttr() *syscall.SysProcAttr { return nil }
