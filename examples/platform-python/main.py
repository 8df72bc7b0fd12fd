"""The app: the platform, the doctor and the GitOps plan at synth, synth (`python main.py`)."""
from cdk8s import App
from cdk8s_cnpg_i import Doctor, Plan

from cnpg_platform import OPERATOR_NAMESPACE, platform

app = App()
platform(app)

# The doctor at synth, as the TypeScript starter's cdk8s.yaml runs it through cdk8s-cli: the
# synth fails on its errors (the cdk8s-cli validation plugin is for Node.js apps only).
Doctor.add_validation(app, operator_namespace=OPERATOR_NAMESPACE)

# The plan compares the new output with the previous one and fails the synth, before anything is
# written, on a change that would delete a database or that the operator would refuse.
Plan.add_plan_validation(app)

app.synth()
