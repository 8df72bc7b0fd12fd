// The platform of examples/platform (platform.ts) in Java: the constructs, without the App.
// Main synthesizes it; the bindings test (test/bindings/apps.test.ts) checks that its YAML is
// byte for byte the TypeScript starter's.
package com.example.platform;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.github.cdk8s_cnpg_i.BackupOwnerReference;
import io.github.cdk8s_cnpg_i.BackupSchedule;
import io.github.cdk8s_cnpg_i.BarmanCloudPlugin;
import io.github.cdk8s_cnpg_i.ClusterBootstrap;
import io.github.cdk8s_cnpg_i.ClusterPluginOptions;
import io.github.cdk8s_cnpg_i.ClusterStorage;
import io.github.cdk8s_cnpg_i.HelloWorldParameters;
import io.github.cdk8s_cnpg_i.HelloWorldPlugin;
import io.github.cdk8s_cnpg_i.ObjectStore;
import io.github.cdk8s_cnpg_i.ObjectStoreCredentials;
import io.github.cdk8s_cnpg_i.ObjectStoreWalOptions;
import io.github.cdk8s_cnpg_i.PluginScheduledBackupOptions;
import io.github.cdk8s_cnpg_i.PluginTls;
import io.github.cdk8s_cnpg_i.PostgresCluster;
import io.github.cdk8s_cnpg_i.RecoveryFromClusterOptions;
import io.github.cdk8s_cnpg_i.RecoveryTarget;
import io.github.cdk8s_cnpg_i.RecoveryTargetOptions;
import io.github.cdk8s_cnpg_i.S3AccessKeysOptions;
import io.github.cdk8s_cnpg_i.SecretKeyReference;
import io.github.cdk8s_cnpg_i.StandalonePlugin;
import io.github.cdk8s_cnpg_i.WalCompression;
import org.cdk8s.Chart;
import org.cdk8s.ChartProps;
import org.cdk8s.Size;
import software.constructs.Construct;

public final class Platform {
    /** The namespace the CloudNativePG operator runs in: plugins must live there. */
    public static final String OPERATOR_NAMESPACE = "cnpg-system";

    /** The platform's two charts. */
    public record Charts(Chart system, Chart databases) {}

    private Platform() {}

    /** Adds the platform's two charts to {@code scope} (an App). */
    public static Charts platform(final Construct scope) {
        // Plugins live in the operator's namespace.
        Chart system = new Chart(scope, "cnpg-system", ChartProps.builder().namespace(OPERATOR_NAMESPACE).build());

        // Barman Cloud as upstream v0.14.0 installs it, with self-signed mTLS (the default).
        BarmanCloudPlugin barman = new BarmanCloudPlugin(system, "barman");

        // The hello-world plugin as a standalone plugin of your own, with a private CA.
        StandalonePlugin hello = StandalonePlugin.Builder.create(system, "hello")
                .pluginName(HelloWorldPlugin.PLUGIN_NAME)
                .image("ghcr.io/cloudnative-pg/cnpg-i-hello-world:v0.1.0")
                .args(List.of("plugin"))
                .tls(PluginTls.privateCa())
                .build();

        // The databases, their object store and their backups live in an application namespace.
        Chart databases = new Chart(scope, "databases", ChartProps.builder().namespace("databases").build());

        // One bucket for both Clusters: each archives under its own server name.
        ObjectStore store = ObjectStore.Builder.create(databases, "backups")
                .destinationPath("s3://example-backups/databases")
                .credentials(ObjectStoreCredentials.s3AccessKeys(S3AccessKeysOptions.builder()
                        .accessKeyId(SecretKeyReference.builder().name("backup-credentials").key("ACCESS_KEY_ID").build())
                        .secretAccessKey(SecretKeyReference.builder().name("backup-credentials").key("ACCESS_SECRET_KEY").build())
                        .build()))
                .wal(ObjectStoreWalOptions.builder().compression(WalCompression.ZSTD).maxParallel(4).build())
                .retentionPolicy("30d")
                .build();

        // Two archiving Clusters, each with a nightly backup through the plugin.
        PostgresCluster orders = PostgresCluster.Builder.create(databases, "orders")
                .instances(3)
                .storage(ClusterStorage.builder().size(Size.gibibytes(20)).build())
                .build();
        orders.addPlugin(barman, ClusterPluginOptions.builder().isWalArchiver(true).objectStore(store).build());
        orders.addPlugin(hello, ClusterPluginOptions.builder()
                .parameters(HelloWorldPlugin.parameters(HelloWorldParameters.builder()
                        .annotations(Map.of("example.com/owner", "orders-team"))
                        .build()))
                .build());
        orders.addScheduledBackup("nightly", PluginScheduledBackupOptions.builder()
                .plugin(barman)
                .schedule(BackupSchedule.daily(2))
                .backupOwnerReference(BackupOwnerReference.SELF)
                .build());

        PostgresCluster billing = PostgresCluster.Builder.create(databases, "billing")
                .instances(2)
                .storage(ClusterStorage.builder().size(Size.gibibytes(10)).build())
                .build();
        billing.addPlugin(barman, ClusterPluginOptions.builder().isWalArchiver(true).objectStore(store).build());
        billing.addScheduledBackup("nightly", PluginScheduledBackupOptions.builder()
                .plugin(barman)
                .schedule(BackupSchedule.daily(3, 30))
                .backupOwnerReference(BackupOwnerReference.SELF)
                .build());

        // A point-in-time recovery of orders as it was just before 09:00 UTC on 1 May 2026.
        PostgresCluster.Builder.create(databases, "orders-restore")
                .instances(1)
                .storage(ClusterStorage.builder().size(Size.gibibytes(20)).build())
                .bootstrap(ClusterBootstrap.recoveryFromCluster(orders, RecoveryFromClusterOptions.builder()
                        .recoveryTarget(RecoveryTarget.time(Instant.parse("2026-05-01T09:00:00Z"),
                                RecoveryTargetOptions.builder().exclusive(true).build()))
                        .build()))
                .build();

        return new Charts(system, databases);
    }
}
