"""The app `cdk8s synth` runs (cdk8s.yaml): the platform, the GitOps plan, synth."""
from cdk8s import App
from cdk8s_cnpg_i import Plan

from cnpg_platform import platform

app = App()
platform(app)

# The plan compares the new output with the previous one and fails the synth, before anything is
# written, on a change that would delete a database or that the operator would refuse.
Plan.add_plan_validation(app)

app.synth()
