//go:build linux

package main

import "syscall"

// childAttr makes the kernel kill a child when this supervisor dies, even by SIGKILL.
func childAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
