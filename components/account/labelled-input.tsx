// A label above its input, as every account form lays them out; the input's id doubles as its form name.
import type { InputHTMLAttributes } from 'react';
import { field } from './styles';

export function LabelledInput({
  id,
  label,
  ...input
}: { id: string; label: string } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <input id={id} name={id} className={field} {...input} />
    </>
  );
}
