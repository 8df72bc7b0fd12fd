"""refusals.ts in Python: each case prints `--- <case>` and the refusal's message."""
from cdk8s import App, Chart, Size
from cdk8s_cnpg_i import (
    BackupSchedule,
    BarmanCloudPlugin,
    ClusterStorage,
    Doctor,
    HelloWorldPlugin,
    ObjectStore,
    ObjectStoreCredentials,
    Plan,
    PostgresCluster,
    RecoveryTarget,
    SecretKeyReference,
    StandalonePlugin,
)


def attempt(name, body):
    app = App(outdir="refusals-out")
    chart = Chart(app, "refusals", namespace="cnpg-system")
    message = "no refusal"
    try:
        body(chart)
        app.synth()
    except RuntimeError as e:  # the jsii runtime raises a JavaScript exception as RuntimeError
        message = str(e)
    print(f"--- {name}\n{message}", flush=True)


def cluster_synth(chart):
    barman = BarmanCloudPlugin(chart, "barman")
    PostgresCluster(chart, "pg", instances=1, storage=ClusterStorage(size=Size.gibibytes(1))).add_plugin(
        barman, is_wal_archiver=True
    )


attempt("plugin", lambda chart: StandalonePlugin(chart, "mine", plugin_name="Not_A_Name", image="example.com/plugin:v1"))
attempt("cluster", lambda chart: PostgresCluster(chart, "pg", instances=0, storage=ClusterStorage(size=Size.gibibytes(1))))
attempt("cluster-synth", cluster_synth)
attempt("backup", lambda chart: BackupSchedule.daily(24))
attempt("recovery", lambda chart: RecoveryTarget.lsn("not-an-lsn"))
attempt(
    "object-store",
    lambda chart: ObjectStore(
        chart,
        "store",
        destination_path="example-backups/databases",
        credentials=ObjectStoreCredentials.s3_access_keys(
            access_key_id=SecretKeyReference(name="backup-credentials", key="ACCESS_KEY_ID"),
            secret_access_key=SecretKeyReference(name="backup-credentials", key="ACCESS_SECRET_KEY"),
        ),
    ),
)
attempt("preset", lambda chart: HelloWorldPlugin.parameters(labels={"not a key!": "x"}))
attempt("plan", lambda chart: Plan.add_plan_validation(chart, previous_dir=""))

doctor_rules, plan_rules = Doctor.DOCTOR_RULES, Plan.PLAN_RULES
print(
    f"--- rules\n{len(doctor_rules)} doctor rules, the first {doctor_rules[0].id}; "
    f"{len(plan_rules)} plan rules, the last {plan_rules[-1].severities[0].severity}"
)
