export * from './views.js';
export * from './messages.js';
export * from './parse.js';
export * from './api.js';
export * from './path-pick.js';
