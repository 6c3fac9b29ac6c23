import { ConfigurationError } from '@toolcircuit/core';

/**
 * A store was asked for but its database driver is not installed. The drivers are optional peer
 * dependencies (an application that keeps runs in memory needs neither, and `better-sqlite3` is native), so
 * this is the first place their absence shows; the message is the command that fixes it.
 */
export class StoreDriverMissingError extends ConfigurationError {
  readonly code = 'store_driver_missing' as const;
  /** The npm package to install: `better-sqlite3` or `pg`. */
  readonly driver: string;

  constructor(driver: string, store: string, options?: ErrorOptions) {
    super(
      driver,
      `the ${store} store needs the package ${driver}, which is not installed. Install it next to @toolcircuit/stores: npm install ${driver}`,
      options,
    );
    this.driver = driver;
  }
}
