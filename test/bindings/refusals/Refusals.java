// refusals.ts in Java: each case prints `--- <case>` and the refusal's message. The jsii runtime
// throws the JavaScript exception as a RuntimeException (software.amazon.jsii.JsiiError).
package com.example.platform;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import io.github.cdk8s_cnpg_i.BackupSchedule;
import io.github.cdk8s_cnpg_i.BarmanCloudPlugin;
import io.github.cdk8s_cnpg_i.ClusterPluginOptions;
import io.github.cdk8s_cnpg_i.ClusterStorage;
import io.github.cdk8s_cnpg_i.Doctor;
import io.github.cdk8s_cnpg_i.HelloWorldParameters;
import io.github.cdk8s_cnpg_i.HelloWorldPlugin;
import io.github.cdk8s_cnpg_i.ObjectStore;
import io.github.cdk8s_cnpg_i.ObjectStoreCredentials;
import io.github.cdk8s_cnpg_i.Plan;
import io.github.cdk8s_cnpg_i.PlanValidationOptions;
import io.github.cdk8s_cnpg_i.PostgresCluster;
import io.github.cdk8s_cnpg_i.RecoveryTarget;
import io.github.cdk8s_cnpg_i.RuleSpec;
import io.github.cdk8s_cnpg_i.S3AccessKeysOptions;
import io.github.cdk8s_cnpg_i.SecretKeyReference;
import io.github.cdk8s_cnpg_i.StandalonePlugin;
import org.cdk8s.App;
import org.cdk8s.AppProps;
import org.cdk8s.Chart;
import org.cdk8s.ChartProps;
import org.cdk8s.Size;

public final class Refusals {
    private Refusals() {}

    private static void attempt(final String name, final Consumer<Chart> body) {
        String message = "no refusal";
        try {
            App app = new App(AppProps.builder().outdir("refusals-out").build());
            Chart chart = new Chart(app, "refusals", ChartProps.builder().namespace("cnpg-system").build());
            body.accept(chart);
            app.synth();
        } catch (RuntimeException e) {
            message = messageOf(e);
        }
        System.out.println("--- " + name + "\n" + message);
    }

    /**
     * The JavaScript message of a jsii error. Its getMessage() is the message, a newline, then the
     * JavaScript stack, whose first line repeats the message after the error's name
     * ("CnpgIValidationError: ...", "@jsii/kernel.RuntimeError: Error: ..."); a message may span
     * lines itself.
     */
    static String messageOf(final RuntimeException e) {
        String text = e.getMessage();
        for (int nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', nl + 1)) {
            String message = text.substring(0, nl);
            if (text.indexOf(": " + message + "\n    at ", nl) >= 0) {
                return message;
            }
        }
        return text;
    }

    private static ClusterStorage oneGibibyte() {
        return ClusterStorage.builder().size(Size.gibibytes(1)).build();
    }

    public static void main(final String[] args) {
        attempt("plugin", chart -> StandalonePlugin.Builder.create(chart, "mine")
                .pluginName("Not_A_Name")
                .image("example.com/plugin:v1")
                .build());
        attempt("cluster", chart -> PostgresCluster.Builder.create(chart, "pg").instances(0).storage(oneGibibyte()).build());
        attempt("cluster-synth", chart -> {
            BarmanCloudPlugin barman = new BarmanCloudPlugin(chart, "barman");
            PostgresCluster.Builder.create(chart, "pg").instances(1).storage(oneGibibyte()).build()
                    .addPlugin(barman, ClusterPluginOptions.builder().isWalArchiver(true).build());
        });
        attempt("backup", chart -> BackupSchedule.daily(24));
        attempt("recovery", chart -> RecoveryTarget.lsn("not-an-lsn"));
        attempt("object-store", chart -> ObjectStore.Builder.create(chart, "store")
                .destinationPath("example-backups/databases")
                .credentials(ObjectStoreCredentials.s3AccessKeys(S3AccessKeysOptions.builder()
                        .accessKeyId(SecretKeyReference.builder().name("backup-credentials").key("ACCESS_KEY_ID").build())
                        .secretAccessKey(SecretKeyReference.builder().name("backup-credentials").key("ACCESS_SECRET_KEY").build())
                        .build()))
                .build());
        attempt("preset", chart -> HelloWorldPlugin.parameters(HelloWorldParameters.builder()
                .labels(Map.of("not a key!", "x"))
                .build()));
        attempt("plan", chart -> Plan.addPlanValidation(chart, PlanValidationOptions.builder().previousDir("").build()));

        List<RuleSpec> doctorRules = Doctor.DOCTOR_RULES;
        List<RuleSpec> planRules = Plan.PLAN_RULES;
        System.out.println("--- rules\n" + doctorRules.size() + " doctor rules, the first " + doctorRules.get(0).getId() + "; "
                + planRules.size() + " plan rules, the last " + planRules.get(planRules.size() - 1).getSeverities().get(0).getSeverity());
    }
}
