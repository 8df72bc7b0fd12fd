// Command cnpgi-e2e holds the three peers of the end-to-end TLS test, as subcommands of one
// binary so that the test compiles and links the standard library once:
//
//	cnpgi-e2e issue    < plan.json   issues what the cert-manager objects ask for into Secret dirs
//	cnpgi-e2e plugin   [args...]     a plugin server configured as cnpg-i-machinery configures it
//	cnpgi-e2e operator [flags]       dials the plugin as the CloudNativePG operator does
//
// Standard library only, so the build needs no network.
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: cnpgi-e2e issue|plugin|operator [args...]")
		os.Exit(2)
	}
	args := os.Args[2:]
	var err error
	switch os.Args[1] {
	case "issue":
		err = runIssue(args)
	case "plugin":
		err = runPlugin(args)
	case "operator":
		err = runOperator(args)
	default:
		err = fmt.Errorf("unknown subcommand %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}
