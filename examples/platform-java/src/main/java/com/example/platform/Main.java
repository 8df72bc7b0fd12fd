// The app: the platform, the doctor and the GitOps plan at synth, synth.
package com.example.platform;

import io.github.cdk8s_cnpg_i.Doctor;
import io.github.cdk8s_cnpg_i.DoctorValidationOptions;
import io.github.cdk8s_cnpg_i.Plan;
import org.cdk8s.App;

public final class Main {
    private Main() {}

    public static void main(final String[] args) {
        App app = new App();
        Platform.platform(app);

        // The doctor at synth, as the TypeScript starter's cdk8s.yaml runs it through cdk8s-cli:
        // the synth fails on its errors (the cdk8s-cli validation plugin is for Node.js apps only).
        Doctor.addValidation(app, DoctorValidationOptions.builder().operatorNamespace(Platform.OPERATOR_NAMESPACE).build());

        // The plan compares the new output with the previous one and fails the synth, before
        // anything is written, on a change that would delete a database or that the operator
        // would refuse.
        Plan.addPlanValidation(app);

        app.synth();
    }
}
