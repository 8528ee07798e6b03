import './configure-zod';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createApiClient } from './api/api-client';
import { pickTransport } from './api/pick-transport';
import { App } from './app';
import { DashboardProvider } from './dashboard-provider';
import { createResourceCache } from './resources/resource-cache';
import './styles.css';

// The cache lives outside React: StrictMode's double effects share its resources instead of opening two.
const cache = createResourceCache(createApiClient(pickTransport()));

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <DashboardProvider cache={cache}>
      <App />
    </DashboardProvider>
  </StrictMode>,
);
