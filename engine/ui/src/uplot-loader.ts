// uPlot ships its minified build as a script defining the global uPlot; it is loaded once, when the
// first chart is drawn.

import type uPlotType from 'uplot';

declare global {
  interface Window {
    uPlot?: typeof uPlotType;
  }
}

let loading: Promise<typeof uPlotType> | undefined;

export function loadUplot(): Promise<typeof uPlotType> {
  loading ??= new Promise((resolve, reject) => {
    if (window.uPlot) return resolve(window.uPlot);
    const script = document.createElement('script');
    script.src = '/ui/vendor/uplot.js';
    script.onload = () => (window.uPlot ? resolve(window.uPlot) : reject(new Error('uPlot did not load')));
    script.onerror = () => reject(new Error('uPlot could not be loaded'));
    document.head.append(script);
  });
  return loading;
}
