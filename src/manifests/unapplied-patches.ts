/*
 * The patches of a kustomization whose folder the doctor read file by file, and which objects
 * they may change. No file access here: the doctor's rules read it.
 */

/**
 * A patch of a kustomization whose folder was read file by file: kustomize would have applied it
 * (kustomize api v0.21.1 api/krusty/kustomizer.go `Run`, the patch transformers), the doctor did
 * not.
 */
export interface UnappliedPatch {
  /** The patch as messages show it: its file, or `an inline patch of DIR/kustomization.yaml`. */
  readonly shown: string;
  /** The file that holds it as an absolute path: the patch file, or the kustomization for an inline patch. */
  readonly file: string;
  /** Whether it is written in the kustomization itself. */
  readonly inline: boolean;
  /** Whether the file it names is missing from the input (a git-ignored folder, a generated file). */
  readonly missing: boolean;
  /**
   * The objects it patches: from its `target` (`kind`, `name` and `namespace` as the regular
   * expressions kustomize anchors; one left out matches any), or from each document of a
   * strategic-merge patch (its kind, name and namespace as written, `null` for none). Undefined
   * when the doctor cannot tell (a missing file, a selector by labels): any object the
   * kustomization builds.
   */
  readonly targets?: ReadonlyArray<PatchTarget>;
}

/** What a patch selects: a selector's patterns, or a strategic-merge patch's own identity. */
export interface PatchTarget {
  readonly kind?: string;
  readonly name?: string;
  /** A pattern, or `null` for a strategic-merge patch written without a namespace (it matches only objects written without one). */
  readonly namespace?: string | null;
  /** Whether the fields are a strategic-merge patch's identity (compared as they are), not a selector's patterns. */
  readonly exact?: boolean;
}

/**
 * Whether a patch may apply to an object of `kind` named `name`, written with `namespace`
 * (undefined: none), before the kustomization's own `namespace` is set: kustomize runs the patch
 * transformers before the namespace transformer; a selector's `kind`, `name` and `namespace` are
 * regular expressions anchored at both ends (kustomize api v0.21.1 types/selector.go
 * `NewSelectorRegex`, `anchorRegex`), and a strategic-merge patch without a target applies to the
 * object of its own kind, name and namespace (none matches none: "no resource matches strategic
 * merge patch ... [noNs]").
 */
export function patchMayApply(patch: UnappliedPatch, kind: string, name: string, namespace: string | undefined): boolean {
  if (!patch.targets) return true;
  const matches = (pattern: string | undefined, value: string) => {
    if (pattern === undefined) return true;
    try {
      return new RegExp(`^(?:${pattern})$`).test(value);
    } catch {
      return pattern === value;
    }
  };
  return patch.targets.some((t) =>
    t.exact
      ? t.kind === kind && t.name === name && (t.namespace ?? undefined) === namespace
      : matches(t.kind, kind) && matches(t.name, name) && (t.namespace === undefined || t.namespace === null || matches(t.namespace, namespace ?? '')),
  );
}
