// refusals.ts in Go: each case prints `--- <case>` and the refusal's message. The jsii runtime
// panics with the JavaScript exception; each case recovers it.
package main

import (
	"fmt"

	"github.com/aws/jsii-runtime-go"
	"github.com/cdk8s-cnpg-i/cdk8s-cnpg-i-go/cdk8scnpgi"
	"github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2"
)

func attempt(name string, body func(chart cdk8s.Chart)) {
	message := "no refusal"
	func() {
		defer func() {
			if r := recover(); r != nil {
				if err, ok := r.(error); ok {
					message = err.Error()
				} else {
					message = fmt.Sprint(r)
				}
			}
		}()
		app := cdk8s.NewApp(&cdk8s.AppProps{Outdir: jsii.String("refusals-out")})
		chart := cdk8s.NewChart(app, jsii.String("refusals"), &cdk8s.ChartProps{Namespace: jsii.String("cnpg-system")})
		body(chart)
		app.Synth()
	}()
	fmt.Printf("--- %s\n%s\n", name, message)
}

func oneGibibyte() *cdk8scnpgi.ClusterStorage {
	return &cdk8scnpgi.ClusterStorage{Size: cdk8s.Size_Gibibytes(jsii.Number(1))}
}

func main() {
	attempt("plugin", func(chart cdk8s.Chart) {
		cdk8scnpgi.NewStandalonePlugin(chart, jsii.String("mine"), &cdk8scnpgi.StandalonePluginProps{
			PluginName: jsii.String("Not_A_Name"),
			Image:      jsii.String("example.com/plugin:v1"),
		})
	})
	attempt("cluster", func(chart cdk8s.Chart) {
		cdk8scnpgi.NewPostgresCluster(chart, jsii.String("pg"), &cdk8scnpgi.PostgresClusterProps{Instances: jsii.Number(0), Storage: oneGibibyte()})
	})
	attempt("cluster-synth", func(chart cdk8s.Chart) {
		barman := cdk8scnpgi.NewBarmanCloudPlugin(chart, jsii.String("barman"), nil)
		pg := cdk8scnpgi.NewPostgresCluster(chart, jsii.String("pg"), &cdk8scnpgi.PostgresClusterProps{Instances: jsii.Number(1), Storage: oneGibibyte()})
		pg.AddPlugin(barman, &cdk8scnpgi.ClusterPluginOptions{IsWalArchiver: jsii.Bool(true)})
	})
	attempt("backup", func(cdk8s.Chart) {
		cdk8scnpgi.BackupSchedule_Daily(jsii.Number(24), nil)
	})
	attempt("recovery", func(cdk8s.Chart) {
		cdk8scnpgi.RecoveryTarget_Lsn(jsii.String("not-an-lsn"), nil)
	})
	attempt("object-store", func(chart cdk8s.Chart) {
		cdk8scnpgi.NewObjectStore(chart, jsii.String("store"), &cdk8scnpgi.ObjectStoreProps{
			DestinationPath: jsii.String("example-backups/databases"),
			Credentials: cdk8scnpgi.ObjectStoreCredentials_S3AccessKeys(&cdk8scnpgi.S3AccessKeysOptions{
				AccessKeyId:     &cdk8scnpgi.SecretKeyReference{Name: jsii.String("backup-credentials"), Key: jsii.String("ACCESS_KEY_ID")},
				SecretAccessKey: &cdk8scnpgi.SecretKeyReference{Name: jsii.String("backup-credentials"), Key: jsii.String("ACCESS_SECRET_KEY")},
			}),
		})
	})
	attempt("preset", func(cdk8s.Chart) {
		cdk8scnpgi.HelloWorldPlugin_Parameters(&cdk8scnpgi.HelloWorldParameters{Labels: &map[string]*string{"not a key!": jsii.String("x")}})
	})
	attempt("plan", func(chart cdk8s.Chart) {
		cdk8scnpgi.Plan_AddPlanValidation(chart, &cdk8scnpgi.PlanValidationOptions{PreviousDir: jsii.String("")})
	})

	doctorRules := *cdk8scnpgi.Doctor_DOCTOR_RULES()
	planRules := *cdk8scnpgi.Plan_PLAN_RULES()
	last := *planRules[len(planRules)-1].Severities
	fmt.Printf("--- rules\n%d doctor rules, the first %s; %d plan rules, the last %s\n",
		len(doctorRules), *doctorRules[0].Id, len(planRules), *last[0].Severity)
}
