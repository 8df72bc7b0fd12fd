// The doctor's and the plan's runtime exports, each read from its module the first time it is
// used: `require('cdk8s-cnpg-i')` does not load the rule registry, the fidelity checks, the plan
// rules or the schema layer (about 30 ms at import) for an app that only builds constructs.
//
// This file is CommonJS on purpose (no import or export statement): TypeScript and esbuild both
// keep the getters below as they are, `export *` of it in src/index.ts copies them as getters
// (tsc's __exportStar, esbuild's __reExport), and Node's ESM loader still finds every name
// (cjs-module-lexer reads `get: function () { return api.name; }`). The types of these names
// are declared in src/index.ts; test/index.test.ts checks both lists are the same.
(() => {
  const doctor = (): typeof import('./doctor') => require('./doctor');
  const plan = (): typeof import('./plan') => require('./plan');
  const api = {
    get DOCTOR_RULES() {
      return doctor().DOCTOR_RULES;
    },
    get DoctorValidationPlugin() {
      return doctor().DoctorValidationPlugin;
    },
    get analyzeManifests() {
      return doctor().analyzeManifests;
    },
    get checkManifests() {
      return doctor().checkManifests;
    },
    get formatFinding() {
      return doctor().formatFinding;
    },
    get PLAN_RULES() {
      return plan().PLAN_RULES;
    },
    get addPlanValidation() {
      return plan().addPlanValidation;
    },
    get formatPlanFinding() {
      return plan().formatPlanFinding;
    },
    get formatPlanJson() {
      return plan().formatPlanJson;
    },
    get formatPlanSarif() {
      return plan().formatPlanSarif;
    },
    get formatPlanText() {
      return plan().formatPlanText;
    },
    get planChanges() {
      return plan().planChanges;
    },
  };
  Object.defineProperty(exports, 'DOCTOR_RULES', {
    enumerable: true,
    get: function () {
      return api.DOCTOR_RULES;
    },
  });
  Object.defineProperty(exports, 'DoctorValidationPlugin', {
    enumerable: true,
    get: function () {
      return api.DoctorValidationPlugin;
    },
  });
  Object.defineProperty(exports, 'analyzeManifests', {
    enumerable: true,
    get: function () {
      return api.analyzeManifests;
    },
  });
  Object.defineProperty(exports, 'checkManifests', {
    enumerable: true,
    get: function () {
      return api.checkManifests;
    },
  });
  Object.defineProperty(exports, 'formatFinding', {
    enumerable: true,
    get: function () {
      return api.formatFinding;
    },
  });
  Object.defineProperty(exports, 'PLAN_RULES', {
    enumerable: true,
    get: function () {
      return api.PLAN_RULES;
    },
  });
  Object.defineProperty(exports, 'addPlanValidation', {
    enumerable: true,
    get: function () {
      return api.addPlanValidation;
    },
  });
  Object.defineProperty(exports, 'formatPlanFinding', {
    enumerable: true,
    get: function () {
      return api.formatPlanFinding;
    },
  });
  Object.defineProperty(exports, 'formatPlanJson', {
    enumerable: true,
    get: function () {
      return api.formatPlanJson;
    },
  });
  Object.defineProperty(exports, 'formatPlanSarif', {
    enumerable: true,
    get: function () {
      return api.formatPlanSarif;
    },
  });
  Object.defineProperty(exports, 'formatPlanText', {
    enumerable: true,
    get: function () {
      return api.formatPlanText;
    },
  });
  Object.defineProperty(exports, 'planChanges', {
    enumerable: true,
    get: function () {
      return api.planChanges;
    },
  });
})();
