/** At most `max` code points, with an ellipsis when cut. */
export function clip(text: string, max: number): string {
  const points = Array.from(text)
  return points.length <= max ? text : points.slice(0, max - 1).join('') + '…'
}
