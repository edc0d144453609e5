export * from './model.js';
export { timerModule } from './module.js';
