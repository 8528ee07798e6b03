import './configure-zod';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createApiClient } from './api/api-client';
import { ApiProvider } from './api/api-context';
import { pickTransport } from './api/pick-transport';
import { App } from './app';
import { connectStores, createStores } from './stores/create-stores';
import { StoresProvider } from './stores/stores-context';
import './styles.css';

// Stores live outside React so StrictMode's double effects cannot open two event streams.
const api = createApiClient(pickTransport());
const stores = createStores(api);
connectStores(api, stores);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <ApiProvider api={api}>
      <StoresProvider stores={stores}>
        <App />
      </StoresProvider>
    </ApiProvider>
  </StrictMode>,
);
