import { checkManifests } from '../../src/doctor/check-manifests';
import { Doc, doc, fixture, ofRule, summary } from './helpers';

function run(mutate: (docs: Doc[]) => void, options = {}) {
  const docs = fixture('good-plugin.yaml');
  mutate(docs);
  return checkManifests(docs, options);
}
const cluster = (docs: Doc[]) => doc(docs, 'Cluster', 'pg').spec;
const backup = (docs: Doc[]) => doc(docs, 'Backup', 'pg-now').spec;
const scheduled = (docs: Doc[]) => doc(docs, 'ScheduledBackup', 'pg-daily').spec;

describe('Cluster, Backup and ScheduledBackup rules', () => {
  describe('CNPGI040 plugin not discovered', () => {
    test('Cluster plugin with a typo', () => {
      const f = ofRule(
        run((docs) => {
          cluster(docs).plugins[0].name = 'backup.example.co';
        }),
        'CNPGI040',
      );
      expect(summary(f)).toEqual(['CNPGI040 error Cluster/app/pg']);
      expect(f[0].message).toBe(
        'Cluster names plugin \'backup.example.co\', which is not discovered (discovered: backup.example.com); the operator stops with "unknown plugin being required"',
      );
      expect(f[0].path).toBe('spec.plugins[0].name');
    });
    test('wrong case suggests the discovered name', () => {
      const f = ofRule(
        run((docs) => {
          cluster(docs).plugins[0].name = 'Backup.example.com';
        }),
        'CNPGI040',
      );
      expect(f[0].fix).toBe("use 'backup.example.com'");
    });
    test('external cluster, Backup and ScheduledBackup are checked', () => {
      const f = ofRule(
        run((docs) => {
          cluster(docs).externalClusters[0].plugin.name = 'x.example.com';
          backup(docs).pluginConfiguration.name = 'x.example.com';
          scheduled(docs).pluginConfiguration.name = 'x.example.com';
        }),
        'CNPGI040',
      );
      expect(summary(f)).toEqual(['CNPGI040 error Cluster/app/pg', 'CNPGI040 error Backup/app/pg-now', 'CNPGI040 error ScheduledBackup/app/pg-daily']);
    });
    test('a plugin Service the operator ignores does not count, and the finding says why', () => {
      const f = ofRule(
        run((docs) => {
          delete doc(docs, 'Service', 'backup').metadata.annotations['cnpg.io/pluginPort'];
        }),
        'CNPGI040',
      );
      expect(f[0].message).toContain('Service/cnpg-system/backup labels this name but the operator ignores it');
    });
    test('known plugins count; disabled plugins need not exist', () => {
      expect(
        ofRule(
          run(
            (docs) => {
              cluster(docs).plugins.push({ name: 'other.example.com' });
            },
            { knownPlugins: ['other.example.com'] },
          ),
          'CNPGI040',
        ),
      ).toEqual([]);
      expect(
        ofRule(
          run((docs) => {
            cluster(docs).plugins.push({ name: 'other.example.com', enabled: false });
          }),
          'CNPGI040',
        ),
      ).toEqual([]);
    });
  });

  test('CNPGI041 two WAL archivers', () => {
    const f = ofRule(
      run(
        (docs) => {
          cluster(docs).plugins.push({ name: 'backup.example.com2', isWALArchiver: true });
        },
        { knownPlugins: ['backup.example.com2'] },
      ),
      'CNPGI041',
    );
    expect(f[0].message).toBe(
      "plugins 'backup.example.com' and 'backup.example.com2' all set isWALArchiver; the webhook allows one WAL archiver per Cluster (\"Cannot enable more than one WAL archiver plugin\")",
    );
    expect(
      ofRule(
        run((docs) => {
          cluster(docs).plugins.push({ name: 'b2', isWALArchiver: true, enabled: false });
        }),
        'CNPGI041',
      ),
    ).toEqual([]);
  });

  test('CNPGI042 WAL archiver plugin with barmanObjectStore', () => {
    const f = ofRule(
      run((docs) => {
        cluster(docs).backup = { barmanObjectStore: { destinationPath: 's3://x' } };
      }),
      'CNPGI042',
    );
    expect(summary(f)).toEqual(['CNPGI042 error Cluster/app/pg']);
    expect(
      ofRule(
        run((docs) => {
          cluster(docs).plugins[0].isWALArchiver = false;
          cluster(docs).backup = { barmanObjectStore: {} };
        }),
        'CNPGI042',
      ),
    ).toEqual([]);
  });

  test('an external cluster without a source is one finding, CNPGI100 (CNPGI043 is retired into it)', () => {
    const all = run((docs) => {
      cluster(docs).externalClusters.push({ name: 'empty' });
    });
    const f = all.filter((x) => x.message.includes("'empty'"));
    expect(summary(f)).toEqual(['CNPGI100 error Cluster/app/pg']);
    expect(f[0].message).toBe(
      "external cluster 'empty' has none of connectionParameters, plugin and barmanObjectStore; the Cluster webhook refuses the Cluster (one of them is required)",
    );
    expect(f[0].fix).toBe('give it a plugin (e.g. name: barman-cloud.cloudnative-pg.io with parameters.barmanObjectName) or connectionParameters');
    expect(
      ofRule(
        run((docs) => {
          cluster(docs).externalClusters.push({ name: 'c', connectionParameters: { host: 'x' } });
        }),
        'CNPGI100',
      ),
    ).toEqual([]);
  });

  test('CNPGI044 Backup method plugin without a name', () => {
    const f = ofRule(
      run((docs) => {
        delete backup(docs).pluginConfiguration;
      }),
      'CNPGI044',
    );
    expect(summary(f)).toEqual(['CNPGI044 error Backup/app/pg-now']);
  });

  test('CNPGI045 ScheduledBackup method plugin without a name (the webhook misses it)', () => {
    const f = ofRule(
      run((docs) => {
        scheduled(docs).pluginConfiguration = {};
      }),
      'CNPGI045',
    );
    expect(f[0].message).toBe(
      'ScheduledBackup has method: plugin but no pluginConfiguration.name; its webhook does not check this, and every Backup it creates is rejected',
    );
  });

  test('CNPGI046 duplicate plugin names', () => {
    const f = ofRule(
      run((docs) => {
        cluster(docs).plugins.push({ name: 'backup.example.com' });
      }),
      'CNPGI046',
    );
    expect(f[0].message).toBe(
      "plugin 'backup.example.com' is listed twice (spec.plugins[0] and [1]); the webhook accepts it and the plugin is loaded once, but one entry's settings are silently lost",
    );
    expect(f[0].severity).toBe('warning');
  });

  test('CNPGI047 pluginConfiguration without method: plugin', () => {
    const f = ofRule(
      run((docs) => {
        delete backup(docs).method;
      }),
      'CNPGI047',
    );
    expect(f[0].message).toBe("Backup sets pluginConfiguration but method is 'barmanObjectStore' (the default); the plugin configuration is ignored");
    expect(f[0].severity).toBe('warning');
  });

  test('plugin parameters must be strings (CNPGI060, from the CRD schema; was CNPGI048)', () => {
    const f = ofRule(
      run((docs) => {
        cluster(docs).plugins[0].parameters.retries = 5;
        scheduled(docs).pluginConfiguration.parameters = { online: true };
      }),
      'CNPGI060',
    );
    expect(f.map((x) => `${x.object} ${x.path}: ${x.message}`)).toEqual([
      'Cluster/app/pg spec.plugins[0].parameters.retries: spec.plugins[0].parameters.retries 5 must be a string',
      'ScheduledBackup/app/pg-daily spec.pluginConfiguration.parameters.online: spec.pluginConfiguration.parameters.online true must be a string',
    ]);
    expect(
      ofRule(
        run((docs) => {
          cluster(docs).plugins[0].parameters = 'x';
        }),
        'CNPGI060',
      ),
    ).toHaveLength(1);
  });

  test('an unknown plugin field is pruned (CNPGI061, from the CRD schema; was CNPGI049)', () => {
    const f = ofRule(
      run((docs) => {
        const p = cluster(docs).plugins[0];
        delete p.isWALArchiver;
        p.isWalArchiver = true;
      }),
      'CNPGI061',
    );
    expect(f.map((x) => [x.path, x.message, x.fix])).toEqual([
      [
        'spec.plugins[0].isWalArchiver',
        'spec.plugins[0].isWalArchiver true is not a field the CRD declares, so the API server drops it',
        "did you mean 'isWALArchiver'?",
      ],
    ]);
  });

  test('Clusters of other API groups are not CNPG Clusters', () => {
    const f = run((docs) => {
      docs.push({ apiVersion: 'cluster.x-k8s.io/v1beta1', kind: 'Cluster', metadata: { name: 'k', namespace: 'x' }, spec: { plugins: [{ name: 'nope' }] } });
    });
    expect(f).toEqual([]);
  });
});
