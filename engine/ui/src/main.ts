// The web interface's entry: starts the router and draws the app into the page.

import { render } from 'preact';
import { html } from 'htm/preact';
import { App } from './app.js';
import { startRouter } from './router.js';

startRouter();
render(html`<${App} />`, document.getElementById('app')!);
