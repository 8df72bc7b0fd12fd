import { DiscoveredPlugin, Finding, Severity } from './finding';
import { Manifest, ManifestIndex, PodTemplate } from './manifest-index';
import { Version } from './cnpg-version';

/** What a finding is attached to. */
export interface FindingTarget {
  readonly ref: string;
  readonly index?: number;
}

/** A Service that looks like a plugin Service, as the operator would read it. */
export interface PluginServiceInfo {
  readonly service: Manifest;
  /** `cnpg.io/pluginName`, when a non-empty string. */
  readonly pluginName?: string;
  /** Parsed `cnpg.io/pluginPort`, when valid. */
  readonly port?: number;
  readonly clientSecret?: string;
  readonly serverSecret?: string;
  /** `cnpg.io/pluginServerName`, when a non-empty string. */
  readonly serverNameAnnotation?: string;
  /** The name the operator verifies (depends on the CNPG version). */
  readonly verifiedName: string;
  /** All of label and the three annotations usable. */
  readonly valid: boolean;
  /** In the operator namespace. */
  readonly inOperatorNamespace: boolean;
  /** Pod templates behind its selector. */
  readonly templates: PodTemplate[];
}

/** A sidecar plugin container in the operator Deployment. */
export interface SidecarInfo {
  readonly deployment: Manifest;
  readonly containerName: string;
  readonly containerPath: string;
  /** The plugin name, when the manifests show it. */
  readonly pluginName?: string;
  readonly socketPath?: string;
}

/**
 * State shared by the rules of one `checkManifests` run.
 */
export class DoctorContext {
  public readonly findings: Finding[] = [];
  public readonly pluginServices: PluginServiceInfo[] = [];
  public readonly sidecars: SidecarInfo[] = [];
  public readonly discovered = new Map<string, DiscoveredPlugin>();
  private readonly seen = new Set<string>();

  constructor(
    public readonly index: ManifestIndex,
    public readonly operatorNamespace: string,
    public readonly version: Version,
    public readonly versionString: string,
    public readonly knownPlugins: ReadonlySet<string>,
  ) {}

  /** Records a finding once (the same object can be reached through two Services). */
  public report(ruleId: string, severity: Severity, target: FindingTarget, message: string, fix: string, path?: string): void {
    const dedup = `${ruleId}\u0000${target.ref}\u0000${path ?? ''}\u0000${message}`;
    if (this.seen.has(dedup)) return;
    this.seen.add(dedup);
    const finding: Finding = {
      ruleId, severity, object: target.ref, message, fix,
      ...(path !== undefined ? { path } : {}),
      ...(target.index !== undefined ? { index: target.index } : {}),
    };
    this.findings.push(finding);
  }

  /** Registers a plugin the operator would know; the first source wins. */
  public discover(plugin: DiscoveredPlugin): void {
    if (!this.discovered.has(plugin.name)) this.discovered.set(plugin.name, plugin);
  }

  /** Sidecars whose plugin name the manifests do not show. */
  public unnamedSidecars(): SidecarInfo[] {
    return this.sidecars.filter((s) => s.pluginName === undefined);
  }
}
