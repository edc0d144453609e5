export * from './model.js';
export { foesModule } from './module.js';
