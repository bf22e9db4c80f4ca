export async function mount(root) {
  root.append(document.createTextNode(""));
  return null;
}
