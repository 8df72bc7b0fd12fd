// The app: the platform, the doctor and the GitOps plan at synth, synth (`go run .`).
package main

import (
	"github.com/aws/jsii-runtime-go"
	"github.com/cdk8s-cnpg-i/cdk8s-cnpg-i-go/cdk8scnpgi"
	"github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2"
)

func main() {
	app := cdk8s.NewApp(nil)
	Platform(app)

	// The doctor at synth, as the TypeScript starter's cdk8s.yaml runs it through cdk8s-cli: the
	// synth fails on its errors (the cdk8s-cli validation plugin is for Node.js apps only).
	cdk8scnpgi.Doctor_AddValidation(app, &cdk8scnpgi.DoctorValidationOptions{OperatorNamespace: jsii.String(OperatorNamespace)})

	// The plan compares the new output with the previous one and fails the synth, before anything
	// is written, on a change that would delete a database or that the operator would refuse.
	cdk8scnpgi.Plan_AddPlanValidation(app, nil)

	app.Synth()
}
