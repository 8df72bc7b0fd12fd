// The app `cdk8s synth` runs (cdk8s.yaml): the platform, the GitOps plan, synth.
package main

import (
	"github.com/cdk8s-cnpg-i/cdk8s-cnpg-i-go/cdk8scnpgi"
	"github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2"
)

func main() {
	app := cdk8s.NewApp(nil)
	Platform(app)

	// The plan compares the new output with the previous one and fails the synth, before anything
	// is written, on a change that would delete a database or that the operator would refuse.
	cdk8scnpgi.Plan_AddPlanValidation(app, nil)

	app.Synth()
}
