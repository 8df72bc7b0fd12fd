// The app `npm run synth` runs (through cdk8s.yaml): the platform, the GitOps plan, synth.
import { App } from 'cdk8s';
import { addPlanValidation } from 'cdk8s-cnpg-i';
import { platform } from './platform';

const app = new App();
platform(app);

// The plan compares the new output with the previous one (under `cdk8s synth`, which empties
// dist/ first: dist/ as committed at git HEAD) and fails the synth, before anything is written,
// on a change that would delete a database or that the operator would refuse.
addPlanValidation(app);

app.synth();
