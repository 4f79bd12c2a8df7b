// The editor of the contestant's page (/me): CodeMirror 6 with line numbers, syntax highlighting
// for Python and JavaScript. It takes over the page's <textarea id="source">, whose form submits
// the editor's text: the page works without this script too (a plain text area).
import { EditorView, basicSetup } from 'codemirror';
import { EditorState, Compartment } from '@codemirror/state';
import { python } from '@codemirror/lang-python';
import { javascript } from '@codemirror/lang-javascript';

const area = document.getElementById('source');
const langSelect = document.getElementById('source-lang');
if (area) {
  const language = new Compartment();
  const mode = () => (langSelect && langSelect.value === 'javascript' ? javascript() : python());
  const view = new EditorView({
    state: EditorState.create({
      doc: area.value,
      extensions: [basicSetup, language.of(mode()), EditorView.lineWrapping],
    }),
  });
  area.parentNode.insertBefore(view.dom, area);
  area.style.display = 'none';
  view.dom.id = 'editor';
  // The form sends the editor's text.
  area.form.addEventListener('submit', () => {
    area.value = view.state.doc.toString();
  });
  // A new language: its template, unless the contestant changed the text.
  if (langSelect) {
    langSelect.addEventListener('change', () => {
      const template = document.getElementById('template-' + langSelect.value);
      const current = view.state.doc.toString();
      const untouched = [...document.querySelectorAll('.template')].some((t) => t.value === current);
      if (template && untouched) {
        view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: template.value } });
      }
      view.dispatch({ effects: language.reconfigure(mode()) });
    });
  }
  // For tests and the curious: the editor's view.
  window.arenaEditor = view;
}
