export { distilHome } from './home.js';
