import type { FigureCell } from '../figures-view.js';
import { FIGURE_LABELS } from '../figures-view.js';
import { html, type Html } from './html.js';

/**
 * One figure in a table cell: its text, its DORA level named in text (the colour only repeats
 * it), or why it is missing. `data-figure`/`data-value` state the API's value for readers and tests.
 */
export function figureCell(cell: FigureCell): Html {
  return html`<td class="num${cell.band ? ` ${cell.band}` : ''}" data-figure="${cell.source}" data-value="${cell.value === null ? 'null' : String(cell.value)}">${cell.text}${
    cell.band ? html`<span class="band band-${cell.band}">${cell.band}</span>` : ''
  }${cell.gap ? html`<span class="gap">${cell.gap}</span>` : ''}</td>`;
}

/** One figure as a card (the repository page). */
export function figureCard(cell: FigureCell): Html {
  return html`<div class="card" data-figure="${cell.source}" data-value="${cell.value === null ? 'null' : String(cell.value)}">
<h3>${FIGURE_LABELS[cell.key]}</h3>
<p class="value">${cell.text}${cell.band ? html`<span class="band band-${cell.band}">${cell.band}</span>` : ''}</p>
${cell.gap ? html`<p class="gap">${cell.gap}</p>` : ''}
</div>`;
}
