"""The platform of examples/platform (platform.ts) in Python: the constructs, without the App.

main.py synthesizes it; the bindings test (test/bindings/apps.test.ts) checks that its YAML is
byte for byte the TypeScript starter's.
"""
from datetime import datetime, timezone

from cdk8s import Chart, Size
from cdk8s_cnpg_i import (
    BackupOwnerReference,
    BackupSchedule,
    BarmanCloudPlugin,
    ClusterBootstrap,
    ClusterStorage,
    HelloWorldPlugin,
    ObjectStore,
    ObjectStoreCredentials,
    PluginTls,
    PostgresCluster,
    RecoveryTarget,
    SecretKeyReference,
    StandalonePlugin,
    WalCompression,
    ObjectStoreWalOptions,
)
from constructs import Construct

# The namespace the CloudNativePG operator runs in: plugins must live there.
OPERATOR_NAMESPACE = "cnpg-system"


def platform(scope: Construct) -> tuple[Chart, Chart]:
    """Adds the platform's two charts to `scope` and returns them (system, databases)."""
    # Plugins live in the operator's namespace.
    system = Chart(scope, "cnpg-system", namespace=OPERATOR_NAMESPACE)

    # Barman Cloud as upstream v0.14.0 installs it, with self-signed mTLS (the default).
    barman = BarmanCloudPlugin(system, "barman")

    # The hello-world plugin as a standalone plugin of your own, with a private CA.
    hello = StandalonePlugin(
        system,
        "hello",
        plugin_name=HelloWorldPlugin.PLUGIN_NAME,
        image="ghcr.io/cloudnative-pg/cnpg-i-hello-world:v0.1.0",
        args=["plugin"],
        tls=PluginTls.private_ca(),
    )

    # The databases, their object store and their backups live in an application namespace.
    databases = Chart(scope, "databases", namespace="databases")

    # One bucket for both Clusters: each archives under its own server name.
    store = ObjectStore(
        databases,
        "backups",
        destination_path="s3://example-backups/databases",
        credentials=ObjectStoreCredentials.s3_access_keys(
            access_key_id=SecretKeyReference(name="backup-credentials", key="ACCESS_KEY_ID"),
            # a struct may also be a plain dict
            secret_access_key={"name": "backup-credentials", "key": "ACCESS_SECRET_KEY"},
        ),
        wal=ObjectStoreWalOptions(compression=WalCompression.ZSTD, max_parallel=4),
        retention_policy="30d",
    )

    # Two archiving Clusters, each with a nightly backup through the plugin.
    orders = PostgresCluster(databases, "orders", instances=3, storage=ClusterStorage(size=Size.gibibytes(20)))
    orders.add_plugin(barman, is_wal_archiver=True, object_store=store)
    orders.add_plugin(
        hello,
        parameters=HelloWorldPlugin.parameters(annotations={"example.com/owner": "orders-team"}),
    )
    orders.add_scheduled_backup(
        "nightly",
        plugin=barman,
        schedule=BackupSchedule.daily(2),
        backup_owner_reference=BackupOwnerReference.SELF,
    )

    billing = PostgresCluster(databases, "billing", instances=2, storage=ClusterStorage(size=Size.gibibytes(10)))
    billing.add_plugin(barman, is_wal_archiver=True, object_store=store)
    billing.add_scheduled_backup(
        "nightly",
        plugin=barman,
        schedule=BackupSchedule.daily(3, 30),
        backup_owner_reference=BackupOwnerReference.SELF,
    )

    # A point-in-time recovery of orders as it was just before 09:00 UTC on 1 May 2026.
    PostgresCluster(
        databases,
        "orders-restore",
        instances=1,
        storage=ClusterStorage(size=Size.gibibytes(20)),
        bootstrap=ClusterBootstrap.recovery_from_cluster(
            orders,
            recovery_target=RecoveryTarget.time(datetime(2026, 5, 1, 9, 0, tzinfo=timezone.utc), exclusive=True),
        ),
    )

    return system, databases
