// The platform of examples/platform (platform.ts) in Go: the constructs, without the App.
// main.go synthesizes it; the bindings test (test/bindings/apps.test.ts) checks that its YAML is
// byte for byte the TypeScript starter's.
package main

import (
	"time"

	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"
	"github.com/cdk8s-cnpg-i/cdk8s-cnpg-i-go/cdk8scnpgi"
	"github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2"
)

// OperatorNamespace is the namespace the CloudNativePG operator runs in: plugins must live there.
const OperatorNamespace = "cnpg-system"

// Platform adds the platform's two charts to scope and returns them (system, databases).
func Platform(scope constructs.Construct) (cdk8s.Chart, cdk8s.Chart) {
	// Plugins live in the operator's namespace.
	system := cdk8s.NewChart(scope, jsii.String("cnpg-system"), &cdk8s.ChartProps{Namespace: jsii.String(OperatorNamespace)})

	// Barman Cloud as upstream v0.14.0 installs it, with self-signed mTLS (the default).
	barman := cdk8scnpgi.NewBarmanCloudPlugin(system, jsii.String("barman"), nil)

	// The hello-world plugin as a standalone plugin of your own, with a private CA.
	hello := cdk8scnpgi.NewStandalonePlugin(system, jsii.String("hello"), &cdk8scnpgi.StandalonePluginProps{
		PluginName: cdk8scnpgi.HelloWorldPlugin_PLUGIN_NAME(),
		Image:      jsii.String("ghcr.io/cloudnative-pg/cnpg-i-hello-world:v0.1.0"),
		Args:       jsii.Strings("plugin"),
		Tls:        cdk8scnpgi.PluginTls_PrivateCa(nil),
	})

	// The databases, their object store and their backups live in an application namespace.
	databases := cdk8s.NewChart(scope, jsii.String("databases"), &cdk8s.ChartProps{Namespace: jsii.String("databases")})

	// One bucket for both Clusters: each archives under its own server name.
	store := cdk8scnpgi.NewObjectStore(databases, jsii.String("backups"), &cdk8scnpgi.ObjectStoreProps{
		DestinationPath: jsii.String("s3://example-backups/databases"),
		Credentials: cdk8scnpgi.ObjectStoreCredentials_S3AccessKeys(&cdk8scnpgi.S3AccessKeysOptions{
			AccessKeyId:     &cdk8scnpgi.SecretKeyReference{Name: jsii.String("backup-credentials"), Key: jsii.String("ACCESS_KEY_ID")},
			SecretAccessKey: &cdk8scnpgi.SecretKeyReference{Name: jsii.String("backup-credentials"), Key: jsii.String("ACCESS_SECRET_KEY")},
		}),
		Wal:             &cdk8scnpgi.ObjectStoreWalOptions{Compression: cdk8scnpgi.WalCompression_ZSTD, MaxParallel: jsii.Number(4)},
		RetentionPolicy: jsii.String("30d"),
	})

	// Two archiving Clusters, each with a nightly backup through the plugin.
	orders := cdk8scnpgi.NewPostgresCluster(databases, jsii.String("orders"), &cdk8scnpgi.PostgresClusterProps{
		Instances: jsii.Number(3),
		Storage:   &cdk8scnpgi.ClusterStorage{Size: cdk8s.Size_Gibibytes(jsii.Number(20))},
	})
	orders.AddPlugin(barman, &cdk8scnpgi.ClusterPluginOptions{IsWalArchiver: jsii.Bool(true), ObjectStore: store})
	orders.AddPlugin(hello, &cdk8scnpgi.ClusterPluginOptions{
		Parameters: cdk8scnpgi.HelloWorldPlugin_Parameters(&cdk8scnpgi.HelloWorldParameters{
			Annotations: &map[string]*string{"example.com/owner": jsii.String("orders-team")},
		}),
	})
	orders.AddScheduledBackup(jsii.String("nightly"), &cdk8scnpgi.PluginScheduledBackupOptions{
		Plugin:               barman,
		Schedule:             cdk8scnpgi.BackupSchedule_Daily(jsii.Number(2), nil),
		BackupOwnerReference: cdk8scnpgi.BackupOwnerReference_SELF,
	})

	billing := cdk8scnpgi.NewPostgresCluster(databases, jsii.String("billing"), &cdk8scnpgi.PostgresClusterProps{
		Instances: jsii.Number(2),
		Storage:   &cdk8scnpgi.ClusterStorage{Size: cdk8s.Size_Gibibytes(jsii.Number(10))},
	})
	billing.AddPlugin(barman, &cdk8scnpgi.ClusterPluginOptions{IsWalArchiver: jsii.Bool(true), ObjectStore: store})
	billing.AddScheduledBackup(jsii.String("nightly"), &cdk8scnpgi.PluginScheduledBackupOptions{
		Plugin:               barman,
		Schedule:             cdk8scnpgi.BackupSchedule_Daily(jsii.Number(3), jsii.Number(30)),
		BackupOwnerReference: cdk8scnpgi.BackupOwnerReference_SELF,
	})

	// A point-in-time recovery of orders as it was just before 09:00 UTC on 1 May 2026.
	when := time.Date(2026, time.May, 1, 9, 0, 0, 0, time.UTC)
	cdk8scnpgi.NewPostgresCluster(databases, jsii.String("orders-restore"), &cdk8scnpgi.PostgresClusterProps{
		Instances: jsii.Number(1),
		Storage:   &cdk8scnpgi.ClusterStorage{Size: cdk8s.Size_Gibibytes(jsii.Number(20))},
		Bootstrap: cdk8scnpgi.ClusterBootstrap_RecoveryFromCluster(orders, &cdk8scnpgi.RecoveryFromClusterOptions{
			RecoveryTarget: cdk8scnpgi.RecoveryTarget_Time(&when, &cdk8scnpgi.RecoveryTargetOptions{Exclusive: jsii.Bool(true)}),
		}),
	})

	return system, databases
}
