/**
 * A rendered Kubernetes object or a part of one (`ApiObject.toJson()` output, a parsed
 * manifest), read by shape. The code that reads it checks what it finds (arrays with
 * `Array.isArray`, strings with `typeof`), so this alias is the one place where that JSON is
 * untyped.
 * @internal
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type RenderedJson = any;
