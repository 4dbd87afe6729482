// The part of jsdom the chart test uses (@types/jsdom would pull the DOM library's types into the
// whole project, where Node's own fetch and stream types must stay).
declare module 'jsdom' {
  export class JSDOM {
    constructor(html?: string);
    readonly window: { readonly document: unknown } & Record<string, unknown>;
  }
}
