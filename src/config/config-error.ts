/** A configuration the service refuses to start with: its message names the file or variable, and the key. */
export class ConfigError extends Error {}
