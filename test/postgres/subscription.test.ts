import { Size, Testing } from 'cdk8s';
import { planChanges } from '../../src';
import { PostgresCluster, PublicationReclaimPolicy, PublicationTarget, Subscription, SubscriptionReclaimPolicy } from '../../src/postgres';
import { chartIn, expectValidationError, only, synth } from '../util';
import { synthErrors } from './synth-errors';

const storage = { size: Size.gibibytes(10) };

function pair(namespace = 'apps') {
  const chart = chartIn(namespace, 'replication');
  const source = new PostgresCluster(chart, 'source', { storage, spec: { enableSuperuserAccess: true } });
  const target = new PostgresCluster(chart, 'target', { storage });
  const publication = source.addPublication('orders', { dbname: 'shop', target: PublicationTarget.allTables() });
  return { chart, source, target, publication };
}

describe('Subscription', () => {
  test('addSubscription: the subscriber gets the publisher as an external cluster over verified TLS, and the Subscription names it', () => {
    const { chart, target, publication } = pair();
    const sub = target.addSubscription('orders', { publication });
    const out = synth(chart);
    expect(only(out, 'Subscription')).toEqual({
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Subscription',
      metadata: { name: 'target-orders', namespace: 'apps' },
      spec: {
        cluster: { name: 'target' },
        name: 'orders',
        dbname: 'shop',
        publicationName: 'orders',
        publicationDBName: 'shop',
        externalClusterName: 'source',
      },
    });
    const subscriber = out.find((o) => o.kind === 'Cluster' && o.metadata.name === 'target');
    expect(subscriber!.spec.externalClusters).toEqual([
      {
        name: 'source',
        connectionParameters: { host: 'source-rw', user: 'postgres', sslmode: 'verify-full' },
        password: { name: 'source-superuser', key: 'password' },
        sslRootCert: { name: 'source-ca', key: 'ca.crt' },
      },
    ]);
    expect({ name: sub.name, subscriptionName: sub.subscriptionName, clusterName: sub.clusterName, externalClusterName: sub.externalClusterName }).toEqual({
      name: 'target-orders',
      subscriptionName: 'orders',
      clusterName: 'target',
      externalClusterName: 'source',
    });
    expect(target.externalClusterNames).toEqual(['source']);
    expect(synthErrors(chart)).toEqual([]);
  });

  test("the publisher's own Secret names are followed; a replication role replaces the superuser; two subscriptions share the external cluster", () => {
    const chart = chartIn('apps', 'replication');
    const source = new PostgresCluster(chart, 'source', { storage, spec: { certificates: { serverCaSecret: 'my-ca', serverTlsSecret: 'my-tls' } } });
    const target = new PostgresCluster(chart, 'target', { storage });
    const orders = source.addPublication('orders', { dbname: 'shop', target: PublicationTarget.allTables() });
    const audit = source.addPublication('audit', { dbname: 'audit', target: PublicationTarget.objects({ tablesInSchemas: ['log'] }) });
    const password = { name: 'replicator-password', key: 'password' };
    target.addSubscription('orders', {
      publication: orders,
      publisherUser: 'replicator',
      publisherPassword: password,
      subscriptionReclaimPolicy: SubscriptionReclaimPolicy.DELETE,
    });
    target.addSubscription('audit', {
      publication: audit,
      dbname: 'app',
      parameters: { copy_data: 'false' },
      publisherUser: 'replicator',
      publisherPassword: password,
    });
    const out = synth(chart);
    expect(out.find((o) => o.metadata.name === 'target')!.spec.externalClusters).toEqual([
      {
        name: 'source',
        connectionParameters: { host: 'source-rw', user: 'replicator', sslmode: 'verify-full' },
        password,
        sslRootCert: { name: 'my-ca', key: 'ca.crt' },
      },
    ]);
    expect(out.filter((o) => o.kind === 'Subscription').map((o) => o.spec)).toEqual([
      {
        cluster: { name: 'target' },
        name: 'orders',
        dbname: 'shop',
        publicationName: 'orders',
        publicationDBName: 'shop',
        externalClusterName: 'source',
        subscriptionReclaimPolicy: 'delete',
      },
      {
        cluster: { name: 'target' },
        name: 'audit',
        dbname: 'app',
        parameters: { copy_data: 'false' },
        publicationName: 'audit',
        publicationDBName: 'audit',
        externalClusterName: 'source',
      },
    ]);
    expect(synthErrors(chart)).toEqual([]);
  });

  test('the superuser cannot log in without enableSuperuserAccess: refused with both ways out; pass: with it', () => {
    const chart = Testing.chart();
    const source = new PostgresCluster(chart, 'source', { storage });
    const target = new PostgresCluster(chart, 'target', { storage });
    const publication = source.addPublication('orders', { dbname: 'app', target: PublicationTarget.allTables() });
    expectValidationError(
      () => target.addSubscription('orders', { publication }),
      "test/target/orders: publisherUser 'postgres' cannot log in to Cluster 'source' (test/source): without enableSuperuserAccess: true the operator sets the postgres password to NULL; set spec: { enableSuperuserAccess: true } on the publisher, or connect as a role with REPLICATION: publisherUser: 'replicator' with publisherPassword",
    );
    expectValidationError(
      () => target.addSubscription('orders2', { publication, publisherUser: 'replicator' }),
      "test/target/orders2: publisherUser 'replicator' has no publisherPassword: only the superuser has a Secret the operator makes; pass publisherPassword: { name: 'replicator-password', key: 'password' }",
    );
    const ok = pair();
    expect(() => ok.target.addSubscription('orders', { publication: ok.publication })).not.toThrow();
  });

  test('a subscription to its own Cluster, another namespace, a clashing external cluster and a foreign subscriber are refused', () => {
    const { source, target, publication } = pair();
    expectValidationError(
      () => source.addSubscription('self', { publication }),
      "replication/source/self: publication 'replication/source/orders' is a publication of Cluster 'source' itself: creating a subscription to a publication of the same Cluster blocks, waiting for a replication slot that the same command would create; subscribe from another Cluster of the app",
    );
    const other = pair('other');
    expectValidationError(
      () => target.addSubscription('far', { publication: other.publication }),
      "replication/target/far: publication 'replication/source/orders' is in namespace 'other', not in the subscriber's ('apps'): the subscriber reads the publisher's CA and password Secrets from its own namespace; put the publisher and the subscriber Clusters in one namespace",
    );
    target.addSubscription('orders', { publication });
    expectValidationError(
      () => target.addSubscription('again', { publication, publisherUser: 'replicator', publisherPassword: { name: 'r', key: 'password' } }),
      "replication/target/again: externalClusterName 'source' is already an external cluster of Cluster 'target' that describes another connection; give this publisher another name, e.g. externalClusterName: 'source-publisher'",
    );
    const chart = chartIn('apps', 'elsewhere');
    expectValidationError(
      () => new Subscription(chart, 's', { cluster: PostgresCluster.fromClusterName('target'), publication, publisherUser: 'replicator' }),
      "elsewhere/s: publisherUser 'replicator' is given for Cluster 'target', which is managed elsewhere: only the external cluster of a PostgresCluster of this program is derived; declare the external cluster 'source' in that Cluster, and leave publisherUser and publisherPassword out",
    );
    new Subscription(chart, 'ok', { cluster: PostgresCluster.fromClusterName('target'), publication, externalClusterName: 'origin' });
    expect(only(synth(chart), 'Subscription').spec.externalClusterName).toEqual('origin');
  });

  test("the plan guards what these constructs write: pruning a Publication and a Subscription with delete, or renaming the publication's database", () => {
    const build = (reclaim: boolean, dbname = 'shop') => {
      const chart = chartIn('apps', 'replication');
      const source = new PostgresCluster(chart, 'source', { storage, spec: { enableSuperuserAccess: true } });
      const target = new PostgresCluster(chart, 'target', { storage });
      const publication = source.addPublication('orders', {
        dbname,
        target: PublicationTarget.allTables(),
        publicationReclaimPolicy: reclaim ? PublicationReclaimPolicy.DELETE : undefined,
      });
      target.addSubscription('orders', { publication, subscriptionReclaimPolicy: reclaim ? SubscriptionReclaimPolicy.DELETE : undefined });
      return synth(chart);
    };
    const findings = (before: unknown[], after: unknown[]) =>
      planChanges(before as never, after as never).findings.map((f) => `${f.ruleId} ${f.severity} ${f.object} ${f.path}`);
    const clustersOnly = (out: any[]) => out.filter((o) => o.kind === 'Cluster');
    expect(findings(build(true), clustersOnly(build(true)))).toEqual([
      'CNPGI260 warning Publication/apps/source-orders spec.publicationReclaimPolicy',
      'CNPGI260 warning Subscription/apps/target-orders spec.subscriptionReclaimPolicy',
    ]);
    expect(findings(build(false), build(true))).toEqual([
      'CNPGI261 warning Publication/apps/source-orders spec.publicationReclaimPolicy',
      'CNPGI261 warning Subscription/apps/target-orders spec.subscriptionReclaimPolicy',
    ]);
    expect(findings(build(false), build(false, 'app'))).toEqual([
      'CNPGI262 error Publication/apps/source-orders spec.dbname',
      'CNPGI262 error Subscription/apps/target-orders spec.dbname',
    ]);
    // pass: the CRD default (retain) pruned, or the same objects again
    expect(findings(build(false), clustersOnly(build(false)))).toEqual([]);
    expect(findings(build(true), build(true))).toEqual([]);
  });
});
