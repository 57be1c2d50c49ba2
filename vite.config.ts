import { reactRouter } from '@react-router/dev/vite';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [reactRouter()],
  cacheDir: '.vite-cache',
  build: { assetsInlineLimit: 0 },
  css: { modules: { localsConvention: 'camelCaseOnly' } },
});
