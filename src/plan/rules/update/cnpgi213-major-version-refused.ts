/*
 * Refused on update: a Cluster's PostgreSQL major is downgraded, or upgraded to a major the
 * webhook does not upgrade to.
 */
import type { RuleDefinition } from '../../../rules/rule';
import { PlanContext } from '../../plan-model';
import { WEBHOOK, changeIssues, clusterUpdates } from './cluster-updates';

export const rule: RuleDefinition<PlanContext> = {
  id: 'CNPGI213',
  name: 'major-version-refused',
  severities: [{ severity: 'error', when: 'The new PostgreSQL major is lower than the old one, or an upgrade targets a major below 16.' }],
  what: "A Cluster's PostgreSQL major version (image tag or image catalog `major`) is downgraded, or upgraded to 14 or 15.",
  why:
    `The webhook compares the new major with the one of the data directory (status.pgDataImageInfo, used here when the previous ` +
    `manifests carry a status, else the previous spec) and refuses downgrades and major upgrades to versions below 16 (${WEBHOOK} validateImageChange; ` +
    'the major comes from cloudnative-pg v1.30.0 api/v1/cluster_funcs.go GetPostgresqlMajorVersion; no image means pkg/versions DefaultImageName, PostgreSQL 18).',
  fix: 'Keep the old major, or upgrade to 16 or later; to go back, restore a backup into a new Cluster.',
  kinds: ['Cluster'],
  check(ctx, report) {
    // the data directory's major, when the previous side is a live object, wins over its spec (clusterUpdates)
    for (const update of clusterUpdates(ctx)) {
      for (const { path, before, after } of changeIssues(update, 'validateImageChange')) {
        if (Number(after) < Number(before)) {
          report(
            'error',
            update.next,
            `downgrades PostgreSQL from major ${before} to ${after}, which the webhook refuses`,
            `keep PostgreSQL ${before}; to go back, restore a backup into a new Cluster`,
            path,
            { before, after },
          );
        } else {
          report(
            'error',
            update.next,
            `upgrades PostgreSQL from ${before} to ${after}; the webhook only allows major upgrades to 16 or higher`,
            'upgrade to PostgreSQL 16 or later',
            path,
            { before, after },
          );
        }
      }
    }
  },
};
