// kustomize itself (sigs.k8s.io/kustomize/kustomize/v5 v5.8.1, which builds with kustomize api
// v0.21.1, the version Flux's kustomize-controller v1.9.4 pins), for the tests that render
// kustomize folders without depending on the machine's kubectl.
package main

import (
	"os"

	"sigs.k8s.io/kustomize/kustomize/v5/commands"
)

func main() {
	if err := commands.NewDefaultCommand().Execute(); err != nil {
		os.Exit(1)
	}
}
