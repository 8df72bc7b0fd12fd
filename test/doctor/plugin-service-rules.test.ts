import { checkManifests } from '../../src/doctor/check-manifests';
import { nearMissOf } from '../../src/doctor/model/plugin-services';
import { Doc, doc, fixture, ofRule, summary } from './helpers';

function withService(mutate: (svc: Doc, docs: Doc[]) => void, options = {}) {
  const docs = fixture('good-plugin.yaml');
  mutate(doc(docs, 'Service', 'backup'), docs);
  return checkManifests(docs, options);
}

describe('plugin Service rules', () => {
  test('the good fixture has no findings', () => {
    expect(checkManifests(fixture('good-plugin.yaml'))).toEqual([]);
  });

  describe('CNPGI010 plugin name label', () => {
    test('missing label, annotations present', () => {
      const f = ofRule(
        withService((s) => {
          delete s.metadata.labels;
        }),
        'CNPGI010',
      );
      expect(summary(f)).toEqual(['CNPGI010 error Service/cnpg-system/backup']);
      expect(f[0].message).toContain('has no label `cnpg.io/pluginName`');
      expect(f[0].path).toBe('metadata.labels');
    });
    test.each([['cnpg.io/plugin'], ['cnpg.io/PluginName'], ['cnpg.io/plugin-name'], ['cnpg.io/pluginname'], ['cnpg.io/pluginNam']])(
      'misspelled label %s',
      (key) => {
        const f = withService((s) => {
          s.metadata.labels = { [key]: 'backup.example.com' };
        });
        const r = ofRule(f, 'CNPGI010');
        expect(r).toHaveLength(1);
        expect(r[0].message).toContain(`label \`${key}\` looks like a misspelling of the label \`cnpg.io/pluginName\``);
        expect(r[0].fix).toBe('rename it to `cnpg.io/pluginName`');
      },
    );
    test('label written as an annotation', () => {
      const f = ofRule(
        withService((s) => {
          delete s.metadata.labels;
          s.metadata.annotations['cnpg.io/pluginName'] = 'backup.example.com';
        }),
        'CNPGI010',
      );
      expect(f[0].message).toContain('is set as an annotation, but the operator reads it from the labels');
    });
    test('a Service without any plugin key is not a plugin Service', () => {
      const docs = fixture('good-plugin.yaml');
      docs.push({
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'web', namespace: 'cnpg-system', labels: { 'cnpg.io/cluster': 'pg' } },
        spec: { ports: [{ port: 80 }] },
      });
      expect(checkManifests(docs)).toEqual([]);
    });
  });

  describe('CNPGI011 annotations', () => {
    test.each([['cnpg.io/pluginPort'], ['cnpg.io/pluginClientSecret'], ['cnpg.io/pluginServerSecret']])('missing %s', (key) => {
      const f = ofRule(
        withService((s) => {
          delete s.metadata.annotations[key];
        }),
        'CNPGI011',
      );
      expect(summary(f)).toEqual(['CNPGI011 error Service/cnpg-system/backup']);
      expect(f[0].message).toBe(
        `plugin Service has no annotation \`${key}\`; the operator silently ignores a plugin Service missing any of the three annotations (port, client and server Secret)`,
      );
    });
    test('misspelled annotation', () => {
      const f = ofRule(
        withService((s) => {
          s.metadata.annotations['cnpg.io/pluginClientSecrets'] = s.metadata.annotations['cnpg.io/pluginClientSecret'];
          delete s.metadata.annotations['cnpg.io/pluginClientSecret'];
        }),
        'CNPGI011',
      );
      expect(f[0].message).toContain('`cnpg.io/pluginClientSecrets` looks like a misspelling of the annotation `cnpg.io/pluginClientSecret`');
    });
    test('annotation written as a label', () => {
      const f = ofRule(
        withService((s) => {
          s.metadata.labels['cnpg.io/pluginPort'] = '9090';
          delete s.metadata.annotations['cnpg.io/pluginPort'];
        }),
        'CNPGI011',
      );
      expect(f[0].message).toContain('`cnpg.io/pluginPort` is set as a label, but the operator reads it from the annotations');
    });
    test('misspelled optional server name is a warning', () => {
      const f = ofRule(
        withService((s) => {
          s.metadata.annotations['cnpg.io/pluginServername'] = 'x';
        }),
        'CNPGI011',
      );
      expect(summary(f)).toEqual(['CNPGI011 warning Service/cnpg-system/backup']);
    });
  });

  describe('CNPGI012 empty or non-string values', () => {
    test('empty label', () => {
      const f = ofRule(
        withService((s) => {
          s.metadata.labels['cnpg.io/pluginName'] = '';
        }),
        'CNPGI012',
      );
      expect(f[0].message).toBe('`cnpg.io/pluginName` is empty; the operator skips a plugin Service whose label is empty');
    });
    test('empty Secret annotation', () => {
      const f = ofRule(
        withService((s) => {
          s.metadata.annotations['cnpg.io/pluginServerSecret'] = '';
        }),
        'CNPGI012',
      );
      expect(summary(f)).toEqual(['CNPGI012 error Service/cnpg-system/backup']);
    });
    test('non-string annotation', () => {
      const f = ofRule(
        withService((s) => {
          s.metadata.annotations['cnpg.io/pluginClientSecret'] = ['a'];
        }),
        'CNPGI012',
      );
      expect(f[0].message).toContain('is a list, not a string');
    });
  });

  describe('CNPGI013 port annotation', () => {
    test.each([['9090/TCP'], ['grpc'], [' 9090']])('not an integer: %s', (v) => {
      const f = ofRule(
        withService((s) => {
          s.metadata.annotations['cnpg.io/pluginPort'] = v;
        }),
        'CNPGI013',
      );
      expect(f[0].message).toBe(
        `\`cnpg.io/pluginPort\` '${v}' is not an integer; the operator's strconv.Atoi fails and it retries forever (InvalidPortAnnotation)`,
      );
    });
    test('unquoted number', () => {
      const f = ofRule(
        withService((s) => {
          s.metadata.annotations['cnpg.io/pluginPort'] = 9090;
        }),
        'CNPGI013',
      );
      expect(f[0].fix).toBe('quote it: `cnpg.io/pluginPort: "9090"`');
    });
    test('out of range', () => {
      const f = ofRule(
        withService((s) => {
          s.metadata.annotations['cnpg.io/pluginPort'] = '70000';
        }),
        'CNPGI013',
      );
      expect(f[0].message).toContain('is not a TCP port');
    });
    test('Go Atoi accepts a sign and leading zeros', () => {
      expect(
        ofRule(
          withService((s) => {
            s.metadata.annotations['cnpg.io/pluginPort'] = '+09090';
          }),
          'CNPGI013',
        ),
      ).toEqual([]);
    });
  });

  describe('CNPGI014 port annotation vs Service ports', () => {
    test('no Service port matches', () => {
      const f = ofRule(
        withService((s) => {
          s.metadata.annotations['cnpg.io/pluginPort'] = '9091';
        }),
        'CNPGI014',
      );
      expect(f[0].message).toBe(
        "`cnpg.io/pluginPort` is 9091 but the Service exposes port(s) 9090; the operator dials the annotation's port and never reads spec.ports",
      );
      expect(f[0].fix).toBe('set `cnpg.io/pluginPort: "9090"`, or expose port 9091');
    });
  });

  describe('CNPGI015 target port vs container', () => {
    test('named targetPort no container declares', () => {
      const f = ofRule(
        withService((s) => {
          s.spec.ports[0].targetPort = 'grpcs';
        }),
        'CNPGI015',
      );
      expect(summary(f)).toEqual(['CNPGI015 error Service/cnpg-system/backup']);
      expect(f[0].message).toContain("targetPort 'grpcs' names no container port of Deployment/cnpg-system/backup");
    });
    test('numeric targetPort differing from --server-address', () => {
      const f = ofRule(
        withService((s) => {
          s.spec.ports[0].targetPort = 8080;
        }),
        'CNPGI015',
      );
      expect(f[0].message).toBe(
        "the Service sends traffic to port 8080 of Deployment/cnpg-system/backup, but container 'plugin' listens on ':9090' (--server-address)",
      );
    });
    test('targetPort defaults to port', () => {
      expect(
        ofRule(
          withService((s) => {
            delete s.spec.ports[0].targetPort;
          }),
          'CNPGI015',
        ),
      ).toEqual([]);
    });
    test('undeclared port without a listen address is a warning', () => {
      const docs = fixture('good-plugin.yaml');
      const c = doc(docs, 'Deployment', 'backup').spec.template.spec.containers[0];
      c.args = c.args.filter((a: string) => !a.startsWith('--server-address'));
      delete c.ports;
      doc(docs, 'Service', 'backup').spec.ports[0].targetPort = 9090;
      expect(summary(ofRule(checkManifests(docs), 'CNPGI015'))).toEqual(['CNPGI015 warning Service/cnpg-system/backup']);
    });
  });

  describe('CNPGI016 selector', () => {
    test('selector matches nothing', () => {
      const f = ofRule(
        withService((s) => {
          s.spec.selector = { app: 'other' };
        }),
        'CNPGI016',
      );
      expect(summary(f)).toEqual(['CNPGI016 warning Service/cnpg-system/backup']);
    });
    test('no selector', () => {
      const f = ofRule(
        withService((s) => {
          delete s.spec.selector;
        }),
        'CNPGI016',
      );
      expect(f[0].message).toContain('has no selector');
    });
    test('selector in another namespace does not match', () => {
      const docs = fixture('good-plugin.yaml');
      doc(docs, 'Deployment', 'backup').metadata.namespace = 'other';
      expect(summary(ofRule(checkManifests(docs), 'CNPGI016'))).toEqual(['CNPGI016 warning Service/cnpg-system/backup']);
    });
  });

  describe('CNPGI017 namespace', () => {
    test('Service outside the operator namespace', () => {
      const f = ofRule(
        withService((s) => {
          s.metadata.namespace = 'plugins';
        }),
        'CNPGI017',
      );
      expect(f[0].message).toBe("plugin Service is in namespace 'plugins', but the operator only watches Services in its own namespace 'cnpg-system'");
    });
    test('OPERATOR_NAMESPACE literal decides', () => {
      const docs = fixture('good-plugin.yaml');
      doc(docs, 'Deployment', 'cnpg-controller-manager').spec.template.spec.containers[0].env = [{ name: 'OPERATOR_NAMESPACE', value: 'elsewhere' }];
      expect(ofRule(checkManifests(docs), 'CNPGI017')).toHaveLength(1);
    });
    test('an unnamespaced Service gets the default namespace (-n), which is then no assumption', () => {
      const f = withService(
        (s) => {
          delete s.metadata.namespace;
        },
        { defaultNamespace: 'apps' },
      );
      expect(ofRule(f, 'CNPGI017')[0].message).toBe(
        "plugin Service is in namespace 'apps', but the operator only watches Services in its own namespace 'cnpg-system'",
      );
    });
  });

  describe('CNPGI018 duplicate names', () => {
    test('two Services with one plugin name', () => {
      const docs = fixture('good-plugin.yaml');
      const copy = JSON.parse(JSON.stringify(doc(docs, 'Service', 'backup')));
      copy.metadata.name = 'backup-2';
      docs.push(copy);
      expect(summary(ofRule(checkManifests(docs), 'CNPGI018'))).toEqual([
        'CNPGI018 warning Service/cnpg-system/backup',
        'CNPGI018 warning Service/cnpg-system/backup-2',
      ]);
    });
    test('the same name outside the operator namespace is CNPGI017, not a duplicate', () => {
      const docs = fixture('good-plugin.yaml');
      const copy = JSON.parse(JSON.stringify(doc(docs, 'Service', 'backup')));
      copy.metadata.namespace = 'x';
      docs.push(copy);
      expect(ofRule(checkManifests(docs), 'CNPGI018')).toEqual([]);
    });
  });

  test('nearMissOf leaves unrelated keys alone', () => {
    expect(nearMissOf('cnpg.io/cluster')).toBeUndefined();
    expect(nearMissOf('app.kubernetes.io/name')).toBeUndefined();
    expect(nearMissOf('cnpg.io/pluginName')).toBeUndefined();
    expect(nearMissOf('cnpg.io/plugin')).toBe('name');
    expect(nearMissOf('CNPG.IO/PLUGINPORT')).toBe('port');
  });

  describe('headless plugin Services (clusterIP: None)', () => {
    test('the annotation port is the container port: works, even though no Service port is 9090', () => {
      const f = withService((svc) => {
        svc.spec.clusterIP = 'None';
        svc.spec.ports = [{ name: 'grpc', port: 443, targetPort: 9090 }];
      });
      expect(f.filter((x) => ['CNPGI014', 'CNPGI015', 'CNPGI111'].includes(x.ruleId))).toEqual([]);
    });
    test('the annotation is the Service port: the dial reaches the pods on that port, targetPort is not applied', () => {
      const f = withService((svc) => {
        svc.metadata.annotations['cnpg.io/pluginPort'] = '443';
        svc.spec.clusterIP = 'None';
        svc.spec.ports = [{ name: 'grpc', port: 443, targetPort: 9090 }];
      });
      expect(summary(f.filter((x) => ['CNPGI014', 'CNPGI015', 'CNPGI111'].includes(x.ruleId)))).toEqual(['CNPGI111 error Service/cnpg-system/backup']);
    });
  });
});
