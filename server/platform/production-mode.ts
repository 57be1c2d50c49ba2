/**
 * Imported first by server/main.ts: libraries such as React pick their production or development
 * build from NODE_ENV when they load, and `npm start` must serve the production one.
 */
process.env.NODE_ENV ??= 'production';
