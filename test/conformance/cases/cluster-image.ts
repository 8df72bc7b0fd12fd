/*
 * cloudnative-pg v1.30.0 internal/webhook/v1/cluster_webhook_test.go as data, image family:
 * validateImagePullPolicy, validateImageName, and the update check validateImageChange.
 *
 * A Cluster with neither imageName nor imageCatalogRef runs the operator's default image; at
 * v1.30.0 (no POSTGRES_IMAGE_NAME override) that is DEFAULT_IMAGE, PostgreSQL major 18. The old
 * object's major comes from its status (status.pgDataImageInfo.majorVersion), which is part of
 * the object the webhook receives on update.
 */
import { AdmissionCase, cluster } from '../case';

/** versions.DefaultImageName at cloudnative-pg v1.30.0. */
const DEFAULT_IMAGE = 'ghcr.io/cloudnative-pg/postgresql:18.4-system-trixie';
/** Its PostgreSQL major. */
const DEFAULT_MAJOR = 18;

const DIGEST = 'sha256:cff94de382ca538861622bbe84cfe03f44f307a9846a5c5eda672cf4dc692866';

export const CLUSTER_IMAGE_CASES: readonly AdmissionCase[] = [
  // validateImagePullPolicy
  {
    id: 'cluster/validateImagePullPolicy/1',
    upstream: { file: 'cluster_webhook_test.go', line: 367, describe: 'ImagePullPolicy validation', it: "complains if the imagePullPolicy isn't valid" },
    function: 'validateImagePullPolicy',
    kind: 'Cluster',
    input: cluster({ imagePullPolicy: 'wrong' }),
    verdict: { errors: 1 },
  },
  {
    id: 'cluster/validateImagePullPolicy/2',
    upstream: { file: 'cluster_webhook_test.go', line: 378, describe: 'ImagePullPolicy validation', it: 'does not complain if the imagePullPolicy is valid' },
    function: 'validateImagePullPolicy',
    kind: 'Cluster',
    input: cluster({ imagePullPolicy: 'Always' }),
    verdict: { errors: 0 },
  },
  // validateImageName
  {
    id: 'cluster/validateImageName/1',
    upstream: { file: 'cluster_webhook_test.go', line: 396, describe: 'Image name validation', it: "doesn't complain if the user simply accept the default" },
    function: 'validateImageName',
    kind: 'Cluster',
    input: cluster(),
    verdict: { errors: 0 },
    note: 'First assertion of this upstream test: no imageName, before defaulting.',
  },
  {
    id: 'cluster/validateImageName/2',
    upstream: { file: 'cluster_webhook_test.go', line: 396, describe: 'Image name validation', it: "doesn't complain if the user simply accept the default" },
    function: 'validateImageName',
    kind: 'Cluster',
    input: cluster(),
    defaulted: true,
    verdict: { errors: 0 },
    note: `Second assertion: after the defaulter, which writes the operator's default image (${DEFAULT_IMAGE}) into spec.imageName.`,
  },
  {
    id: 'cluster/validateImageName/3',
    upstream: { file: 'cluster_webhook_test.go', line: 405, describe: 'Image name validation', it: "complains when the 'latest' tag is detected" },
    function: 'validateImageName',
    kind: 'Cluster',
    input: cluster({ imageName: 'postgres:latest' }),
    verdict: { errors: 1 },
  },
  {
    id: 'cluster/validateImageName/4',
    upstream: { file: 'cluster_webhook_test.go', line: 414, describe: 'Image name validation', it: "doesn't complain when a alpha tag is used" },
    function: 'validateImageName',
    kind: 'Cluster',
    input: cluster({ imageName: 'postgres:15alpha1' }),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateImageName/5',
    upstream: { file: 'cluster_webhook_test.go', line: 423, describe: 'Image name validation', it: "doesn't complain when a beta tag is used" },
    function: 'validateImageName',
    kind: 'Cluster',
    input: cluster({ imageName: 'postgres:15beta1' }),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateImageName/6',
    upstream: { file: 'cluster_webhook_test.go', line: 432, describe: 'Image name validation', it: "doesn't complain when a release candidate tag is used" },
    function: 'validateImageName',
    kind: 'Cluster',
    input: cluster({ imageName: 'postgres:15rc1' }),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateImageName/7',
    upstream: { file: 'cluster_webhook_test.go', line: 441, describe: 'Image name validation', it: 'complains when only the sha is passed' },
    function: 'validateImageName',
    kind: 'Cluster',
    input: cluster({ imageName: `postgres@${DIGEST}` }),
    verdict: { errors: 1 },
  },
  {
    id: 'cluster/validateImageName/8',
    upstream: { file: 'cluster_webhook_test.go', line: 450, describe: 'Image name validation', it: "doesn't complain if the tag is valid" },
    function: 'validateImageName',
    kind: 'Cluster',
    input: cluster({ imageName: 'postgres:10.4' }),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateImageName/9',
    upstream: { file: 'cluster_webhook_test.go', line: 459, describe: 'Image name validation', it: "doesn't complain if the tag is valid" },
    function: 'validateImageName',
    kind: 'Cluster',
    input: cluster({ imageName: 'postgres:14.4-1' }),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateImageName/10',
    upstream: { file: 'cluster_webhook_test.go', line: 468, describe: 'Image name validation', it: "doesn't complain if the tag is valid and has sha" },
    function: 'validateImageName',
    kind: 'Cluster',
    input: cluster({ imageName: `postgres:10.4@${DIGEST}` }),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateImageName/11',
    upstream: { file: 'cluster_webhook_test.go', line: 477, describe: 'Image name validation', it: 'complain when the tag name is not a PostgreSQL version' },
    function: 'validateImageName',
    kind: 'Cluster',
    input: cluster({ imageName: 'postgres:test_12' }),
    verdict: { errors: 1 },
  },
  // validateImageChange (update)
  {
    id: 'cluster/validateImageChange/1',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 1270,
      describe: 'validate image name change > using image name',
      it: "doesn't complain with no changes",
    },
    function: 'validateImageChange',
    kind: 'Cluster',
    input: cluster(),
    old: cluster({}, {}, { image: DEFAULT_IMAGE, pgDataImageInfo: { image: DEFAULT_IMAGE, majorVersion: DEFAULT_MAJOR } }),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateImageChange/2',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 1289,
      describe: 'validate image name change > using image name',
      it: "complains if it can't upgrade between mayor versions",
    },
    function: 'validateImageChange',
    kind: 'Cluster',
    input: cluster({ imageName: 'postgres:16.0' }),
    old: cluster({ imageName: 'postgres:17.0' }, {}, { image: 'test', pgDataImageInfo: { image: 'postgres:17.0', majorVersion: 17 } }),
    verdict: { errors: 1 },
  },
  {
    id: 'cluster/validateImageChange/3',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 1310,
      describe: 'validate image name change > using image name',
      it: "doesn't complain if image change is valid",
    },
    function: 'validateImageChange',
    kind: 'Cluster',
    input: cluster({ imageName: 'postgres:17.0' }),
    old: cluster({ imageName: 'postgres:17.1' }, {}, { image: 'test', pgDataImageInfo: { image: 'postgres:17.1', majorVersion: 17 } }),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateImageChange/4',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 1332,
      describe: 'validate image name change > using image catalog',
      it: 'complains on major downgrades',
    },
    function: 'validateImageChange',
    kind: 'Cluster',
    input: cluster({ imageCatalogRef: { name: 'test', kind: 'ImageCatalog', major: 15 } }),
    old: cluster(
      { imageCatalogRef: { name: 'test', kind: 'ImageCatalog', major: 16 } },
      {},
      { image: 'test', pgDataImageInfo: { image: 'test', majorVersion: 16 } },
    ),
    verdict: { errors: 1 },
  },
  {
    id: 'cluster/validateImageChange/5',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 1366,
      describe: 'validate image name change > changing from imageName to imageCatalogRef',
      it: "doesn't complain when the major is the same",
    },
    function: 'validateImageChange',
    kind: 'Cluster',
    input: cluster({ imageCatalogRef: { name: 'test', kind: 'ImageCatalog', major: 16 } }),
    old: cluster({ imageName: 'postgres:16.1' }, {}, { image: 'test', pgDataImageInfo: { image: 'postgres:16.1', majorVersion: 16 } }),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateImageChange/6',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 1392,
      describe: 'validate image name change > changing from imageName to imageCatalogRef',
      it: 'complains on major downgrades',
    },
    function: 'validateImageChange',
    kind: 'Cluster',
    input: cluster({ imageCatalogRef: { name: 'test', kind: 'ImageCatalog', major: 16 } }),
    old: cluster({ imageName: 'postgres:17.1' }, {}, { image: 'postgres:17.1', pgDataImageInfo: { image: 'postgres:17.1', majorVersion: 17 } }),
    verdict: { errors: 1 },
  },
  {
    id: 'cluster/validateImageChange/7',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 1418,
      describe: 'validate image name change > changing from imageName to imageCatalogRef',
      it: 'complains going from default imageName to different major imageCatalogRef',
    },
    function: 'validateImageChange',
    kind: 'Cluster',
    input: cluster({ imageCatalogRef: { name: 'test', kind: 'ImageCatalog', major: 16 } }),
    old: cluster({}, {}, { image: DEFAULT_IMAGE, pgDataImageInfo: { image: DEFAULT_IMAGE, majorVersion: DEFAULT_MAJOR } }),
    verdict: { errors: 1 },
  },
  {
    id: 'cluster/validateImageChange/8',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 1444,
      describe: 'validate image name change > changing from imageName to imageCatalogRef',
      it: "doesn't complain going from default imageName to same major imageCatalogRef",
    },
    function: 'validateImageChange',
    kind: 'Cluster',
    input: cluster({ imageCatalogRef: { name: 'test', kind: 'ImageCatalog', major: DEFAULT_MAJOR } }),
    old: cluster(),
    verdict: { errors: 0 },
    note: 'The old object has no status.pgDataImageInfo, so the function has no old major to compare with.',
  },
  {
    id: 'cluster/validateImageChange/9',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 1467,
      describe: 'validate image name change > changing from imageCatalogRef to imageName',
      it: "doesn't complain when the major is the same",
    },
    function: 'validateImageChange',
    kind: 'Cluster',
    input: cluster({ imageName: 'postgres:17.1' }),
    old: cluster(
      { imageCatalogRef: { name: 'test', kind: 'ImageCatalog', major: 17 } },
      {},
      { image: 'test', pgDataImageInfo: { image: 'test', majorVersion: 17 } },
    ),
    verdict: { errors: 0 },
  },
  {
    id: 'cluster/validateImageChange/10',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 1493,
      describe: 'validate image name change > changing from imageCatalogRef to imageName',
      it: 'complains on major downgrades',
    },
    function: 'validateImageChange',
    kind: 'Cluster',
    input: cluster({ imageName: 'postgres:16.1' }),
    old: cluster(
      { imageCatalogRef: { name: 'test', kind: 'ImageCatalog', major: 17 } },
      {},
      { image: 'test', pgDataImageInfo: { image: 'test', majorVersion: 17 } },
    ),
    verdict: { errors: 1 },
  },
  {
    id: 'cluster/validateImageChange/11',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 1519,
      describe: 'validate image name change > changing from imageCatalogRef to imageName',
      it: 'complains going from imageCatalogRef to lower major default imageName',
    },
    function: 'validateImageChange',
    kind: 'Cluster',
    input: cluster(),
    old: cluster(
      { imageCatalogRef: { name: 'test', kind: 'ImageCatalog', major: DEFAULT_MAJOR + 1 } },
      {},
      { image: 'test', pgDataImageInfo: { image: 'test', majorVersion: DEFAULT_MAJOR + 1 } },
    ),
    verdict: { errors: 1 },
  },
  {
    id: 'cluster/validateImageChange/12',
    upstream: {
      file: 'cluster_webhook_test.go',
      line: 1547,
      describe: 'validate image name change > changing from imageCatalogRef to imageName',
      it: "doesn't complain going from imageCatalogRef to same major default imageName",
    },
    function: 'validateImageChange',
    kind: 'Cluster',
    input: cluster(),
    old: cluster(
      { imageCatalogRef: { name: 'test', kind: 'ImageCatalog', major: DEFAULT_MAJOR } },
      {},
      { image: 'test', pgDataImageInfo: { image: 'test', majorVersion: DEFAULT_MAJOR } },
    ),
    verdict: { errors: 0 },
  },
];
