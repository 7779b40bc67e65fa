declare const __MGP_VERSION__: string | undefined;

/** The package version, stamped in by the bundler; "0.0.0-dev" when run from unbundled sources. */
export const MGP_KERNEL_VERSION: string =
  typeof __MGP_VERSION__ === 'string' ? __MGP_VERSION__ : '0.0.0-dev';
