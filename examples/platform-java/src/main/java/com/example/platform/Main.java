// The app `cdk8s synth` runs (cdk8s.yaml): the platform, the GitOps plan, synth.
package com.example.platform;

import io.github.cdk8s_cnpg_i.Plan;
import org.cdk8s.App;

public final class Main {
    private Main() {}

    public static void main(final String[] args) {
        App app = new App();
        Platform.platform(app);

        // The plan compares the new output with the previous one and fails the synth, before
        // anything is written, on a change that would delete a database or that the operator
        // would refuse.
        Plan.addPlanValidation(app);

        app.synth();
    }
}
