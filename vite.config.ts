import { reactRouter } from '@react-router/dev/vite';
import { defineConfig } from 'vite';
import { clientChunks } from './scripts/client-chunks.ts';

const chunks = clientChunks();

export default defineConfig({
  plugins: [reactRouter(), chunks.plugin],
  cacheDir: '.vite-cache',
  build: { assetsInlineLimit: 0 },
  environments: {
    client: { build: { rolldownOptions: { output: { codeSplitting: chunks.codeSplitting } } } },
  },
  css: { modules: { localsConvention: 'camelCaseOnly' } },
});
